/**
 * A short-lived cache of verified Basic credentials, so sandbox clients that send Basic on
 * every call are not slowed by scrypt each time. An entry is keyed by the stored password
 * hash and the offered password: when the password changes, the stored hash changes and the
 * old entry can never match again, on any instance.
 */
import { createHash } from 'node:crypto';

export interface BasicAuthCache {
  has(passwordHash: string, password: string): boolean;
  remember(passwordHash: string, password: string): void;
}

export function createBasicAuthCache({ ttlMs = 60_000, maxEntries = 10_000 } = {}): BasicAuthCache {
  const entries = new Map<string, number>();
  const keyOf = (hash: string, password: string) =>
    createHash('sha256').update(hash).update('\0').update(password).digest('base64');
  return {
    has(passwordHash, password) {
      const key = keyOf(passwordHash, password);
      const expires = entries.get(key);
      if (expires === undefined) return false;
      if (expires < Date.now()) {
        entries.delete(key);
        return false;
      }
      return true;
    },
    remember(passwordHash, password) {
      // Maps iterate in insertion order: dropping the first entry drops the oldest.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(keyOf(passwordHash, password), Date.now() + ttlMs);
    },
  };
}
