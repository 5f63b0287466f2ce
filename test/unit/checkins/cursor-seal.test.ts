/**
 * Sealing the manifest's cursor (src/modules/checkins/cursor-seal.ts), its pure functions:
 * what is sealed opens for its departure under its keys (or the previous secret's during a
 * rotation) and for nothing else; a token with any byte changed, cut or made longer does not
 * open; the key is the server secret's under a label of its own.
 */
import { hkdfSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cursorKeys,
  SEAL_OVERHEAD,
  seal,
  SEALED_FORMAT,
  unseal,
} from '../../../src/modules/checkins/cursor-seal.js';

const SECRET = 'test-secret-that-is-long-enough-0123456789';
const OTHER_SECRET = 'another-secret-that-is-long-enough-98765';
const EVENT = '6b171a4801ba44131c9bb7e5';
const OTHER = '6b171a4801ba44131c9bb7e4';
const keys = cursorKeys(SECRET);
const plain = Buffer.from('["Zoë \\"O\'Hara\\" 🚤","6b171a4801ba44131c9bb7e6",1,17]', 'utf8');
const bytesOf = (token: string) => Buffer.from(token, 'base64url');

describe('seal and unseal', () => {
  it('opens what it sealed, for its departure', () => {
    const token = seal(keys, EVENT, plain);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(bytesOf(token)).toHaveLength(SEAL_OVERHEAD + plain.length);
    expect(bytesOf(token)[0]).toBe(SEALED_FORMAT);
    expect(unseal(keys, EVENT, bytesOf(token))).toEqual(plain);
    expect(unseal(keys, EVENT, bytesOf(seal(keys, EVENT, Buffer.alloc(0))))).toEqual(
      Buffer.alloc(0),
    );
  });

  it('writes a new token each time (a random nonce), and none holds the text', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => seal(keys, EVENT, plain)));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(bytesOf(token).includes(plain)).toBe(false);
      expect(bytesOf(token).includes(Buffer.from('Hara'))).toBe(false);
    }
  });

  it("does not open another departure's token, nor another secret's", () => {
    const token = bytesOf(seal(keys, EVENT, plain));
    expect(unseal(keys, OTHER, token)).toBeUndefined();
    expect(unseal(cursorKeys(OTHER_SECRET), EVENT, token)).toBeUndefined();
  });

  it('does not open a token with any bit of any byte changed', () => {
    const token = bytesOf(seal(keys, EVENT, plain));
    for (let at = 0; at < token.length; at++)
      for (let bit = 0; bit < 8; bit++) {
        const changed = Buffer.from(token);
        changed[at] = changed[at]! ^ (1 << bit);
        expect(unseal(keys, EVENT, changed), `byte ${at} bit ${bit}`).toBeUndefined();
      }
  });

  it('does not open a token cut short, made longer, or too short to be one', () => {
    const token = bytesOf(seal(keys, EVENT, plain));
    for (let length = 0; length < token.length; length++)
      expect(unseal(keys, EVENT, token.subarray(0, length)), `${length}`).toBeUndefined();
    expect(unseal(keys, EVENT, Buffer.concat([token, Buffer.of(0)]))).toBeUndefined();
    expect(unseal(keys, EVENT, Buffer.alloc(0))).toBeUndefined();
  });

  it('does not open made-up tokens', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 200 }), (bytes) => {
        expect(unseal(keys, EVENT, Buffer.from(bytes))).toBeUndefined();
        // With the right format byte too.
        expect(
          unseal(keys, EVENT, Buffer.concat([Buffer.of(SEALED_FORMAT), Buffer.from(bytes)])),
        ).toBeUndefined();
      }),
    );
  });

  it('opens any text it sealed, and only for its departure', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const token = bytesOf(seal(keys, EVENT, Buffer.from(bytes)));
        expect(unseal(keys, EVENT, token)).toEqual(Buffer.from(bytes));
        expect(unseal(keys, OTHER, token)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it("opens the previous secret's tokens during a rotation, and seals under the new one", () => {
    const before = bytesOf(seal(cursorKeys(OTHER_SECRET), EVENT, plain));
    const rotating = cursorKeys(SECRET, OTHER_SECRET);
    expect(unseal(rotating, EVENT, before)).toEqual(plain);
    const after = bytesOf(seal(rotating, EVENT, plain));
    expect(unseal(keys, EVENT, after)).toEqual(plain);
    expect(unseal(cursorKeys(OTHER_SECRET), EVENT, after)).toBeUndefined();
    // Once the rotation is over, the old secret's tokens no longer open.
    expect(unseal(keys, EVENT, before)).toBeUndefined();
  });

  it('derives the key from the server secret under a label of its own', () => {
    expect(cursorKeys(SECRET).current).toEqual(cursorKeys(SECRET).current);
    expect(cursorKeys(SECRET).current).toHaveLength(32);
    expect(cursorKeys(SECRET).current).not.toEqual(cursorKeys(OTHER_SECRET).current);
    // Not API keys' (security/api-keys.ts), derived from the same secret.
    const apiKeys = Buffer.from(
      hkdfSync('sha256', SECRET, 'booking-service', 'api-key-encryption', 32),
    );
    expect(cursorKeys(SECRET).current).not.toEqual(apiKeys);
    expect(cursorKeys(SECRET).previous).toBeUndefined();
  });
});
