/**
 * Sealing the manifest's paging cursor (manifest-cursor.ts): AES-256-GCM under a key derived
 * with HKDF from the server secret (BOOKING_SECRET), as API keys are (security/api-keys.ts),
 * under a label of its own, so the cursor's key opens nothing else and nothing else's opens
 * a cursor. Before, the token was base64url JSON holding the last guest's customer name:
 * personal data in every `Link` header and HTML page's next link, and so in proxies' access
 * logs and browsers' history. Sealed, the token tells nothing of what it holds (its length
 * only roughly: the cursor pads what it seals), and one altered or made up does not open.
 * The departure's id is the associated data: another departure's token does not open either.
 *
 * A token is base64url of: a format byte, a random 96-bit nonce, the 128-bit tag, the
 * sealed bytes. Random nonces bound a key to about 2^32 tokens, billions of pages.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The first byte of a sealed token; never `[`, the first of an unsealed one (JSON). */
export const SEALED_FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A sealed token's bytes besides what it seals. */
export const SEAL_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;

/**
 * The keys tokens are sealed and opened with: the current secret's, and during a rotation
 * of BOOKING_SECRET the previous one's, whose tokens (written by an instance not yet
 * restarted) still open.
 */
export interface CursorKeys {
  readonly current: Buffer;
  readonly previous?: Buffer;
}

const keyOf = (secret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, 'booking-service', 'manifest-cursor-encryption', 32));

/** The cursor keys of a server secret (`loadSecret`) and the previous one, if rotating. */
export function cursorKeys(secret: string, previous?: string): CursorKeys {
  return previous === undefined
    ? { current: keyOf(secret) }
    : { current: keyOf(secret), previous: keyOf(previous) };
}

const associated = (eventId: string): Buffer =>
  Buffer.concat([Buffer.of(SEALED_FORMAT), Buffer.from(eventId, 'utf8')]);

/** `plain` sealed for the manifest of `eventId`, as base64url. `iv`: tests only. */
export function seal(
  keys: CursorKeys,
  eventId: string,
  plain: Buffer,
  iv: Buffer = randomBytes(IV_BYTES),
): string {
  const gcm = createCipheriv('aes-256-gcm', keys.current, iv);
  gcm.setAAD(associated(eventId));
  const body = Buffer.concat([gcm.update(plain), gcm.final()]);
  return Buffer.concat([Buffer.of(SEALED_FORMAT), iv, gcm.getAuthTag(), body]).toString(
    'base64url',
  );
}

/**
 * What a sealed token's bytes (base64url decoded) hold, or undefined when they were not
 * sealed for the manifest of `eventId` under these keys, or were changed since: whatever
 * is wrong with them, nothing says what.
 */
export function unseal(keys: CursorKeys, eventId: string, bytes: Buffer): Buffer | undefined {
  if (bytes.length < SEAL_OVERHEAD || bytes[0] !== SEALED_FORMAT) return undefined;
  for (const key of keys.previous ? [keys.current, keys.previous] : [keys.current]) {
    const opened = open(key, eventId, bytes);
    if (opened) return opened;
  }
  return undefined;
}

function open(key: Buffer, eventId: string, bytes: Buffer): Buffer | undefined {
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, SEAL_OVERHEAD);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associated(eventId));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(bytes.subarray(SEAL_OVERHEAD)), decipher.final()]);
  } catch {
    // The tag does not match: altered, made up, another departure's or another secret's.
    return undefined;
  }
}
