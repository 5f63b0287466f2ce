/**
 * Passwords: scrypt (node:crypto) with a per-user salt, stored as
 * `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_BYTES = 64;
const DEFAULT_COST = { N: 16384, r: 8, p: 1 };

/**
 * At most `concurrency` hashes run at once, and at most `QUEUE_PER_SLOT` per slot wait:
 * scrypt takes CPU and 16 MiB of memory per hash, and a burst of sign-ins must not starve
 * every other request. Beyond the queue a sign-in is refused at once (503, retry shortly).
 */
const QUEUE_PER_SLOT = 16;
let concurrency = 2;
let running = 0;
const waiting: (() => void)[] = [];

export function setPasswordHashConcurrency(n: number): void {
  concurrency = Math.max(1, n);
}

export class PasswordHashBusyError extends Error {
  override name = 'PasswordHashBusyError';
}

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running < concurrency) running++;
  else {
    if (waiting.length >= concurrency * QUEUE_PER_SLOT) throw new PasswordHashBusyError();
    // Woken with the slot of a hash that finished: `running` is already counting it.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return slot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = DEFAULT_COST;
  const key = await derive(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
