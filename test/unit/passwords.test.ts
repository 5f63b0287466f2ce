/** Password hashing runs with bounded concurrency and a bounded queue (src/security/passwords.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import {
  PasswordHashBusyError,
  hashPassword,
  setPasswordHashConcurrency,
  verifyPassword,
} from '../../src/security/passwords.js';

afterEach(() => setPasswordHashConcurrency(2));

describe('password hashing', () => {
  it('verifies what it hashed', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
  });

  it('queues past its concurrency, and refuses at once past the queue', async () => {
    setPasswordHashConcurrency(1);
    // One running, sixteen waiting (16 per slot): all of them complete...
    const accepted = Array.from({ length: 17 }, (_, i) => hashPassword(`p${i}`));
    // ...and the next one is refused without waiting.
    await expect(hashPassword('one too many')).rejects.toBeInstanceOf(PasswordHashBusyError);
    const hashes = await Promise.all(accepted);
    expect(new Set(hashes).size).toBe(17);
    // Once the queue drained, hashing works again.
    await expect(hashPassword('after')).resolves.toMatch(/^scrypt\$/);
  }, 60_000);
});
