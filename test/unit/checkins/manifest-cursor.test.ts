/**
 * The manifest's paging cursor (src/modules/checkins/manifest-cursor.ts): a token holds the
 * last guest's place as its page read it, sealed (cursor-seal.ts), and reads back as that
 * place, on its departure only; it holds no trace of the customer's name and tells its
 * length only to 64 bytes; anything else that is not a guest's id, or an unsealed token of
 * the version before (read for this release), is `400 invalid_parameter`, never a value the
 * database would refuse; and the logs never show a token.
 */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/logging.js';
import { cursorKeys, seal } from '../../../src/modules/checkins/cursor-seal.js';
import {
  CURSOR_MAX,
  cursorOf,
  readCursor,
  type ManifestKey,
} from '../../../src/modules/checkins/manifest-cursor.js';
import { QueryError } from '../../../src/query/errors.js';

const keys = cursorKeys('test-secret-that-is-long-enough-0123456789');
const EVENT = '6b171a4801ba44131c9bb7e5';
const OTHER = '6b171a4801ba44131c9bb7e4';
const key: ManifestKey = {
  customerName: 'Zoë "O\'Hara" 🚤',
  orderId: '6b171a4801ba44131c9bb7e6',
  itemPosition: 1,
  position: 17,
  id: '6b171a4801ba44131c9bb7e7',
};
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sealed = (value: unknown, event = EVENT) =>
  seal(keys, event, Buffer.from(JSON.stringify(value)));
const fields = (k: ManifestKey) => [k.customerName, k.orderId, k.itemPosition, k.position, k.id];

function refusal(text: string, event = EVENT): string {
  try {
    readCursor(keys, event, text);
  } catch (error) {
    if (error instanceof QueryError) return `${error.code} ${error.parameter}`;
    throw error;
  }
  throw new Error(`accepted ${text}`);
}

describe('the manifest cursor', () => {
  it('reads back the place it was written with, on its departure', () => {
    const token = cursorOf(keys, EVENT, key);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readCursor(keys, EVENT, token)).toEqual({ key });
    expect(refusal(token, OTHER)).toBe('invalid_parameter startingAfter');
  });

  it('holds no trace of the name, and tells its length only to 64 bytes', () => {
    const token = cursorOf(keys, EVENT, { ...key, customerName: 'Hortense' });
    for (const alphabet of ['base64', 'base64url'] as const)
      expect(Buffer.from(token, alphabet).includes(Buffer.from('Hortense'))).toBe(false);
    expect(token).not.toContain(Buffer.from('Hortense').toString('base64url').slice(0, 8));
    const lengthOf = (customerName: string) =>
      cursorOf(keys, EVENT, { ...key, customerName }).length;
    expect(new Set(['Al', 'Hortense Lefèvre', 'x'.repeat(50)].map(lengthOf)).size).toBe(1);
  });

  it("still reads a guest's id, and the version before's unsealed tokens", () => {
    expect(readCursor(keys, EVENT, key.id)).toEqual({ guest: key.id });
    expect(readCursor(keys, EVENT, encode([EVENT, ...fields(key)]))).toEqual({ key });
    expect(refusal(encode([OTHER, ...fields(key)]))).toBe('invalid_parameter startingAfter');
  });

  it('falls back to the guest id past CURSOR_MAX', () => {
    expect(cursorOf(keys, EVENT, { ...key, customerName: '\u0001'.repeat(CURSOR_MAX) })).toBe(
      key.id,
    );
  });

  it('refuses anything else as 400 invalid_parameter naming startingAfter', () => {
    const token = cursorOf(keys, EVENT, key);
    const bytes = Buffer.from(token, 'base64url');
    const flipped = (at: number) => {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at]! ^ 0x20;
      return changed.toString('base64url');
    };
    const tampered = [
      // Sealed: another departure's, another secret's, changed, cut, grown.
      cursorOf(keys, OTHER, key),
      cursorOf(cursorKeys('another-secret-that-is-long-enough-98765'), EVENT, key),
      ...[0, 1, 13, 29, bytes.length - 1].map(flipped),
      bytes.subarray(0, -1).toString('base64url'),
      Buffer.concat([bytes, bytes.subarray(-1)]).toString('base64url'),
      // Sealed by this service, not a place (no such token is written; checked all the same).
      sealed(fields(key).slice(0, 4)),
      sealed([...fields(key), 1]),
      sealed([EVENT, ...fields(key)]),
      sealed(['a\u0000b', key.orderId, 1, 17, key.id]),
      sealed(['x', key.orderId, 2 ** 31, 17, key.id]),
      sealed('a string'),
      seal(keys, EVENT, Buffer.from([0xc3, 0x28])),
      // Unsealed, of the version before.
      encode([EVENT, ...fields(key)].slice(0, 5)),
      encode([EVENT, ...fields(key), 1]),
      encode({ ...key, event: EVENT }),
      encode([EVENT, 'a\u0000b', key.orderId, 1, 17, key.id]),
      encode([EVENT, '\ud800', key.orderId, 1, 17, key.id]),
      encode([EVENT, 'x', 'x'.repeat(24), 1, 17, key.id]),
      encode([EVENT, 'x', key.orderId, 2 ** 31, 17, key.id]),
      encode([EVENT, 'x', key.orderId, 1, -1, key.id]),
      encode([EVENT, 'x', key.orderId, 1, 0.5, key.id]),
      encode([EVENT, 'x', key.orderId, 1, '17', key.id]),
      encode([EVENT, 7, key.orderId, 1, 17, key.id]),
      encode('not a cursor at all, just a string'),
      Buffer.from([0xc3, 0x28, 0x5b, 0x22, 0x61, 0x22, 0x5d, 0x20, 0x20]).toString('base64url'),
      // Not base64url as written.
      `${token}A`,
      'A'.repeat(40),
      key.id.toUpperCase(),
    ];
    for (const text of tampered)
      expect(refusal(text), text).toBe('invalid_parameter startingAfter');
  });

  it('keeps tokens out of the logs', () => {
    for (const customerName of ['a', 'Bob', 'aaaa-bbbb', 'x'.repeat(200)]) {
      const url = `/api/events/${EVENT}/manifest?startingAfter=${cursorOf(keys, EVENT, { ...key, customerName })}`;
      expect(redactUrl(url)).toBe(`/api/events/${EVENT}/manifest?startingAfter=[redacted]`);
    }
  });
});
