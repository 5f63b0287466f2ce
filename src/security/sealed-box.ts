/**
 * Authenticated encryption under the server secret, written once for what the service seals
 * (API keys at rest: api-keys.ts; the manifest's paging cursor: checkins/cursor-seal.ts):
 * AES-256-GCM under a key derived with HKDF from BOOKING_SECRET under a label of each use's
 * own (so one use's key opens nothing of another's), a random 96-bit nonce a box, and the
 * caller's associated data (what the box is bound to: a user's id, a departure's id). A box
 * is a format byte, the nonce, the 128-bit tag and the sealed bytes. Random nonces bound a
 * key to about 2^32 boxes.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The first byte of every box. */
export const BOX_FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A box's bytes besides what it seals. */
export const BOX_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;

/** The key of one use (`label`) of the server secret. */
export const sealingKey = (secret: string, label: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, 'booking-service', label, 32));

/** `plain` sealed under `key`, bound to `associated`. */
export function sealBox(key: Buffer, associated: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const gcm = createCipheriv('aes-256-gcm', key, iv);
  gcm.setAAD(associated);
  const body = Buffer.concat([gcm.update(plain), gcm.final()]);
  return Buffer.concat([Buffer.of(BOX_FORMAT), iv, gcm.getAuthTag(), body]);
}

/**
 * What `box` seals, or undefined when it was not sealed under `key` bound to `associated`,
 * or was changed since: whatever is wrong with it, nothing says what.
 */
export function openBox(key: Buffer, associated: Buffer, box: Buffer): Buffer | undefined {
  if (box.length < BOX_OVERHEAD || box[0] !== BOX_FORMAT) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(1, 1 + IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(associated);
  decipher.setAuthTag(box.subarray(1 + IV_BYTES, BOX_OVERHEAD));
  try {
    return Buffer.concat([decipher.update(box.subarray(BOX_OVERHEAD)), decipher.final()]);
  } catch {
    return undefined;
  }
}
