/**
 * The manifest's paging cursor (src/modules/checkins/manifest-cursor.ts): a token holds the
 * last guest's place as its page read it and reads back as that place, on its departure
 * only; anything else that is not a guest's id is `400 invalid_parameter`, never a value the
 * database would refuse; and the logs never show the customer's name it carries.
 */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/logging.js';
import {
  CURSOR_MAX,
  cursorOf,
  readCursor,
  type ManifestKey,
} from '../../../src/modules/checkins/manifest-cursor.js';
import { QueryError } from '../../../src/query/errors.js';

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
const fields = (k: ManifestKey) => [k.customerName, k.orderId, k.itemPosition, k.position, k.id];

function refusal(text: string, event = EVENT): string {
  try {
    readCursor(event, text);
  } catch (error) {
    if (error instanceof QueryError) return `${error.code} ${error.parameter}`;
    throw error;
  }
  throw new Error(`accepted ${text}`);
}

describe('the manifest cursor', () => {
  it('reads back the place it was written with, on its departure', () => {
    const token = cursorOf(EVENT, key);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readCursor(EVENT, token)).toEqual({ key });
  });

  it("still reads a guest's id, what paging.next named before", () => {
    expect(readCursor(EVENT, key.id)).toEqual({ guest: key.id });
  });

  it('falls back to the guest id when the token would pass CURSOR_MAX', () => {
    expect(cursorOf(EVENT, { ...key, customerName: '\u0001'.repeat(CURSOR_MAX) })).toBe(key.id);
  });

  it('refuses anything else as 400 invalid_parameter naming startingAfter', () => {
    const tampered = [
      cursorOf(OTHER, key),
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
      `${cursorOf(EVENT, key)}A`,
      'A'.repeat(40),
      key.id.toUpperCase(),
    ];
    for (const text of tampered)
      expect(refusal(text), text).toBe('invalid_parameter startingAfter');
  });

  it("keeps the customer's name out of the logs", () => {
    for (const customerName of ['a', 'Bob', 'aaaa-bbbb', 'x'.repeat(200)]) {
      const url = `/api/events/${EVENT}/manifest?startingAfter=${cursorOf(EVENT, { ...key, customerName })}`;
      expect(redactUrl(url)).toBe(`/api/events/${EVENT}/manifest?startingAfter=[redacted]`);
    }
  });
});
