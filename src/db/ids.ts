/**
 * Object IDs: 24 lowercase hex characters in the ObjectId layout (4-byte seconds, 5 random
 * bytes fixed per process, 3-byte counter), so ids sort by creation time and the default
 * `-id` order is "newest first" without a separate timestamp index.
 */
import { randomBytes, randomInt } from 'node:crypto';

const processRandom = randomBytes(5).toString('hex');
let counter = randomInt(0, 0xffffff);

export const ID_PATTERN = '^[0-9a-f]{24}$';
const ID_REGEX = new RegExp(ID_PATTERN);

export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now / 1000) >>> 0;
  return (
    seconds.toString(16).padStart(8, '0') + processRandom + counter.toString(16).padStart(6, '0')
  );
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_REGEX.test(value);
}

/** The creation time encoded in an id. */
export function idTimestamp(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}
