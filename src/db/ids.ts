/**
 * Object IDs: 24 lowercase hex characters, 4 bytes of seconds then 8 random bytes (64 bits,
 * from the system's CSPRNG), so ids sort by creation second (the default `-id` order is
 * "newest first" without a separate timestamp index, and keyset paging works) while a
 * neighbour cannot be guessed: knowing one id says nothing about the next, even within the
 * same second. Ids made in the same second are in no particular order among themselves.
 */
import { randomBytes } from 'node:crypto';

export const ID_PATTERN = '^[0-9a-f]{24}$';
const ID_REGEX = new RegExp(ID_PATTERN);

/** Random bytes fetched in batches: one call into the CSPRNG per 4 KB, not one per id. */
const BATCH = 4096;
let pool = Buffer.alloc(0);
let offset = BATCH;

/**
 * `bytes` (at most 64) fresh random bytes from the system's CSPRNG as lowercase hex, taken
 * from the batch (each byte handed out once; the batch never leaves the process).
 */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(BATCH);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000) >>> 0;
  return seconds.toString(16).padStart(8, '0') + randomHex(8);
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_REGEX.test(value);
}

/** The creation time encoded in an id. */
export function idTimestamp(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}
