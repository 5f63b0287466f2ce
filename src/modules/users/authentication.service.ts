/**
 * Turns credentials into a Caller: API keys (by digest, constant-time confirmed; verified
 * ones cached while every change to them is heard, caller-cache.ts) and, in the sandbox
 * only, Basic email:password (scrypt, with a short verified-credentials cache).
 */
import type { Db } from '../../db/database.js';
import { DomainError } from '../../domain/errors.js';
import {
  MAX_API_KEY_LENGTH,
  apiKeyDigestText,
  digestBytes,
  digestsEqual,
} from '../../security/api-keys.js';
import { verifyPassword } from '../../security/passwords.js';
import type { BasicAuthCache } from './basic-auth-cache.js';
import type { CallerCache } from './caller-cache.js';
import type { Caller } from '../../domain/caller.js';
import { usersRepository, type CallerRow } from './users.repository.js';

const invalid = () =>
  new DomainError('invalid_credentials', 'The credentials were not recognised.');

function toCaller(row: CallerRow): Caller {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles: row.roles,
    apiVersion: row.api_version,
    delegations: new Map(row.delegations.map((d) => [d.sellerId, d.roles])),
  };
}

export function authenticationService({
  db,
  cache,
  callers,
}: {
  db: Db;
  cache: BasicAuthCache;
  /** Verified keys (caller-cache.ts); without it every request reads the database. */
  callers?: CallerCache;
}) {
  const repo = usersRepository(db);
  return {
    /** The caller of a key verified lately, when the cache may answer at once (no promise). */
    cachedApiKey(apiKey: string): Caller | undefined {
      if (apiKey.length === 0 || apiKey.length > MAX_API_KEY_LENGTH) return undefined;
      return callers?.peek(apiKeyDigestText(apiKey));
    },

    async byApiKey(apiKey: string): Promise<Caller> {
      if (apiKey.length === 0 || apiKey.length > MAX_API_KEY_LENGTH) throw invalid();
      const digest = apiKeyDigestText(apiKey);
      const known = await callers?.get(digest);
      if (known) return known;
      const generation = callers?.generation() ?? 0;
      const bytes = digestBytes(digest);
      const row = await repo.findCallerByApiKeyDigest(bytes);
      if (!row || !digestsEqual(row.api_key_digest, bytes)) throw invalid();
      const caller = toCaller(row);
      callers?.put(digest, caller, generation);
      return caller;
    },

    async byPassword(email: string, password: string): Promise<Caller> {
      const row = await repo.findCallerByEmail(email);
      if (!row) {
        // Spend the same time as a wrong password so the answer does not reveal the email.
        await verifyPassword(password, DUMMY_HASH);
        throw invalid();
      }
      if (cache.has(row.password_hash, password)) return toCaller(row);
      if (!(await verifyPassword(password, row.password_hash))) throw invalid();
      cache.remember(row.password_hash, password);
      return toCaller(row);
    },
  };
}

export type AuthenticationService = ReturnType<typeof authenticationService>;

// A valid scrypt hash of a random password, used only to equalise timing.
const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');
