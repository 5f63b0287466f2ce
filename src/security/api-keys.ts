/**
 * API keys: generation, the SHA-256 digest used to look a key up, and AES-256-GCM
 * encryption at rest (the key is bound to its user id as associated data), so a leaked
 * database alone leaks no usable key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longer inputs are rejected before hashing: no key we issue is near this long. */
export const MAX_API_KEY_LENGTH = 128;

export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

export function apiKeyDigest(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey, 'utf8').digest();
}

export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ApiKeyCipher {
  encrypt(apiKey: string, userId: string): Buffer;
  decrypt(ciphertext: Buffer, userId: string): string;
}

export function createApiKeyCipher(secret: string): ApiKeyCipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'booking-service', 'api-key-encryption', 32));
  return {
    encrypt(apiKey, userId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), body]);
    },
    decrypt(ciphertext, userId) {
      if (ciphertext[0] !== FORMAT_VERSION) throw new Error('Unknown API key ciphertext format');
      const iv = ciphertext.subarray(1, 1 + IV_BYTES);
      const tag = ciphertext.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(tag);
      const body = ciphertext.subarray(1 + IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}
