/**
 * The server secret that API keys are encrypted under: `BOOKING_SECRET`, or for the
 * embedded default a random secret generated once into `<DATA_DIR>/secret.key` (mode 0600).
 * Several instances sharing one database must share `BOOKING_SECRET`: with a PostgreSQL
 * server it is required (config.ts refuses to start without it, and so does this).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
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
