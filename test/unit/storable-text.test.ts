/**
 * Outside text made storable (src/db/storable-text.ts): NUL characters, which a `text` column
 * refuses, become U+FFFD, and a cut to the column's length never leaves half a surrogate pair.
 */
import { describe, expect, it } from 'vitest';
import { storableText } from '../../src/db/storable-text.js';

describe('storableText', () => {
  it('replaces every NUL with U+FFFD and keeps the rest as it is', () => {
    expect(storableText('ok\u0000')).toBe('ok\ufffd');
    expect(storableText('\u0000a\u0000\u0000b')).toBe('\ufffda\ufffd\ufffdb');
    expect(storableText('plain text, é, 😀')).toBe('plain text, é, 😀');
    expect(storableText('')).toBe('');
  });

  it('cuts to the length given, NULs counted before they are replaced', () => {
    expect(storableText('abcdef', 4)).toBe('abcd');
    expect(storableText('a\u0000cdef', 3)).toBe('a\ufffdc');
    expect(storableText('abc', 3)).toBe('abc');
  });

  it('never cuts a surrogate pair in two', () => {
    // '😀' is two UTF-16 units: a cut after the first would leave a lone surrogate.
    expect(storableText('ab😀', 3)).toBe('ab');
    expect(storableText('ab😀', 4)).toBe('ab😀');
    expect(storableText('ab😀c', 5)).toBe('ab😀c');
  });
});
