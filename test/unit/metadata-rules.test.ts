import { describe, expect, it } from 'vitest';
import {
  METADATA_LIMITS,
  metadataLimitError,
  metadataPairErrors,
} from '../../src/modules/users/metadata.rules.js';

describe('metadata rules', () => {
  it('accepts namespaced keys with scalar and object values', () => {
    expect(
      metadataPairErrors({ 'acme/rocket/crm_id': 1, 'a/b': 'x', c: { d: [1] }, e: null, f: true }),
    ).toEqual([]);
  });

  it('names each bad key', () => {
    const errors = metadataPairErrors({ 'a.b': 1, '': 2, ' ': 3, ['k'.repeat(256)]: 4, list: [1] });
    expect(errors.map((e) => e.name)).toEqual([
      'a.b',
      '(empty key)',
      ' ',
      'k'.repeat(40) + '…',
      'list',
    ]);
  });

  it('accepts a key of exactly the maximum length', () => {
    expect(metadataPairErrors({ ['k'.repeat(METADATA_LIMITS.maxKeyLength)]: 1 })).toEqual([]);
  });

  it('limits the merged object by key count and by size', () => {
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(metadataLimitError(keys(100))).toBeUndefined();
    expect(metadataLimitError(keys(101))).toMatch(/101 keys/);
    expect(metadataLimitError({ k: 'x'.repeat(16 * 1024) })).toMatch(/bytes/);
    expect(metadataLimitError({ k: 'x'.repeat(16 * 1024 - 20) })).toBeUndefined();
  });
});
