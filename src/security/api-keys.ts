/**
 * API keys: generation, the SHA-256 digest used to look a key up, and encryption at rest
 * (sealed-box.ts: AES-256-GCM, the key bound to its user id as associated data), so a leaked
 * database alone leaks no usable key.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { charactersFor, randomAlphanumeric } from './random-text.js';
import { openBox, sealBox, sealingKey } from './sealed-box.js';

/** Longer inputs are rejected before hashing: no key we issue is near this long. */
export const MAX_API_KEY_LENGTH = 128;

/**
 * 256 random bits as 43 letters and digits. Keys issued before were base64url (with `-` and
 * `_`); they keep working, since a key is only ever looked up by its digest.
 */
export function generateApiKey(): string {
  return randomAlphanumeric(charactersFor(256));
}

/** The digest a key is stored and looked up by in the database. */
export function apiKeyDigest(apiKey: string): Buffer {
  return hash('sha256', apiKey, 'buffer');
}

/**
 * The same digest as base64 text, which the credential caches are keyed by (caller-cache.ts):
 * every authenticated request computes one, and straight to text the one-shot `hash` makes
 * no Buffer to encode (about a third of the time of the bytes and their base64).
 */
export const apiKeyDigestText = (apiKey: string): string => hash('sha256', apiKey, 'base64');

/** The bytes of a digest given as text (`apiKeyDigestText`), for the database. */
export const digestBytes = (text: string): Buffer => Buffer.from(text, 'base64');

export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ApiKeyCipher {
  encrypt(apiKey: string, userId: string): Buffer;
  /** Under the current secret, or the previous one while a rotation is under way. */
  decrypt(ciphertext: Buffer, userId: string): string;
  /** The ciphertext under the current secret, or undefined when it already is. */
  reseal(ciphertext: Buffer, userId: string): Buffer | undefined;
}

const keyOf = (secret: string) => sealingKey(secret, 'api-key-encryption');

function open(key: Buffer, ciphertext: Buffer, userId: string): string {
  const plain = openBox(key, Buffer.from(userId, 'utf8'), ciphertext);
  if (!plain) throw new Error('The API key ciphertext does not open under this secret');
  return plain.toString('utf8');
}

/**
 * `previous` is the secret being rotated away from (BOOKING_SECRET_PREVIOUS): what it
 * sealed still opens, and `reseal` moves it under the current one (`cli rotate-secret`,
 * docs/operations.md).
 */
export function createApiKeyCipher(secret: string, previous?: string): ApiKeyCipher {
  const key = keyOf(secret);
  const previousKey = previous === undefined ? undefined : keyOf(previous);
  const cipher: ApiKeyCipher = {
    encrypt(apiKey, userId) {
      return sealBox(key, Buffer.from(userId, 'utf8'), Buffer.from(apiKey, 'utf8'));
    },
    decrypt(ciphertext, userId) {
      try {
        return open(key, ciphertext, userId);
      } catch (error) {
        if (!previousKey) throw error;
        return open(previousKey, ciphertext, userId);
      }
    },
    reseal(ciphertext, userId) {
      try {
        open(key, ciphertext, userId);
        return undefined;
      } catch {
        return cipher.encrypt(cipher.decrypt(ciphertext, userId), userId);
      }
    },
  };
  return cipher;
}
