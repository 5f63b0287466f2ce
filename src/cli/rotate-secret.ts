/**
 * `cli rotate-secret`: re-encrypts every API key, webhook signing secret and invitation token
 * waiting in the outbox under
 * BOOKING_SECRET, opening the old ones with BOOKING_SECRET_PREVIOUS (the procedure is in
 * docs/operations.md). Refuses to run without a previous secret: there would be nothing to
 * rotate from.
 */
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { sealedInvitations } from '../mail/index.js';
import { hooksFacade } from '../modules/hooks/index.js';
import { usersFacade } from '../modules/users/index.js';
import { resealAll } from '../security/secret-rotation.js';
import { configuredCipher } from '../security/secret.js';

export async function rotateSecret(config: Config): Promise<void> {
  if (!config.previousSecret || !config.secret) {
    throw new Error(
      'rotate-secret needs BOOKING_SECRET (the new secret) and BOOKING_SECRET_PREVIOUS (the old one)',
    );
  }
  const cipher = configuredCipher(config);
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: 1 }
      : { kind: 'pglite', dataDir: config.dataDir, role: 'cli rotate-secret' },
  );
  try {
    for (const store of [
      usersFacade.sealedKeys(database.db),
      hooksFacade.sealedSecrets(database.db),
      sealedInvitations(database.db),
    ]) {
      const { checked, resealed } = await resealAll(store, cipher);
      console.log(`${store.name}: ${resealed} of ${checked} re-encrypted under the new secret`);
    }
  } finally {
    await database.close();
  }
}
