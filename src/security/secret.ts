/**
 * The server secret that API keys are encrypted under: `BOOKING_SECRET`, or for the
 * embedded default a random secret generated once into `<DATA_DIR>/secret.key` (mode 0600).
 * Several instances sharing one database must share `BOOKING_SECRET`: with a PostgreSQL
 * server it is required (config.ts refuses to start without it, and so does this).
 */
import fs from 'node:fs';
import path from 'node:path';
import { hkdfSync, randomBytes } from 'node:crypto';
import { ConfigError } from '../config.js';
import { createApiKeyCipher } from './api-keys.js';

export interface SecretSource {
  secret: string | undefined;
  dataDir: string;
  /** Set: a shared database, where a secret of this process's own would open nothing elsewhere. */
  databaseUrl?: string | undefined;
}

export function loadSecret({ secret, dataDir, databaseUrl }: SecretSource): string {
  if (secret) return secret;
  // A second line of defence for a configuration not made by loadConfig.
  if (databaseUrl)
    throw new ConfigError(
      'Invalid configuration: BOOKING_SECRET must be set with DATABASE_URL: every instance and command sharing the database uses the same one',
    );
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  try {
    // 'wx': if another process won the race, read its secret instead of overwriting it.
    fs.writeFileSync(file, generated + '\n', { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** The cipher of this configuration: BOOKING_SECRET, and the previous one during a rotation. */
export const configuredCipher = (config: SecretSource & { previousSecret?: string | undefined }) =>
  createApiKeyCipher(loadSecret(config), config.previousSecret);

/**
 * The key idempotency fingerprints are made with (an HMAC, modules/idempotency): a
 * fingerprint hashes the request's body, a sign-up's password included, and the row keeps
 * the body's other fields in its answer beside it, so a plain SHA-256 could be cracked at
 * GPU speed from a leaked database. Derived from the server secret, so every instance makes
 * the same fingerprint (a retry across a secret rotation is refused as another request).
 */
export const configuredFingerprintKey = (config: SecretSource): Buffer =>
  Buffer.from(
    hkdfSync('sha256', loadSecret(config), Buffer.alloc(0), 'idempotency-fingerprint', 32),
  );
