/**
 * `cli rotate-secret`: re-encrypts every API key, webhook signing secret, reseller credential
 * and invitation token
 * waiting in the outbox under
 * BOOKING_SECRET, opening the old ones with BOOKING_SECRET_PREVIOUS (the procedure is in
 * docs/operations.md). Refuses to run without a previous secret: there would be nothing to
 * rotate from. Beside a running embedded server it runs there, with the server's secrets.
 */
import { sealedInvitations } from '../mail/index.js';
import { hooksFacade } from '../modules/hooks/index.js';
import { resellersFacade } from '../modules/resellers/index.js';
import { usersFacade } from '../modules/users/index.js';
import { resealAll } from '../security/secret-rotation.js';
import { configuredCipher } from '../security/secret.js';
import { CommandRefusedError, type CommandContext } from './context.js';

export async function rotateSecret(ctx: CommandContext): Promise<void> {
  const { config } = ctx;
  if (!config.previousSecret || !config.secret) {
    throw new CommandRefusedError(
      'rotate-secret needs BOOKING_SECRET (the new secret) and BOOKING_SECRET_PREVIOUS (the old one)',
    );
  }
  const cipher = configuredCipher(config);
  const database = await ctx.open('cli rotate-secret');
  try {
    for (const store of [
      usersFacade.sealedKeys(database.db),
      hooksFacade.sealedSecrets(database.db),
      resellersFacade.sealedKeys(database.db),
      sealedInvitations(database.db),
    ]) {
      const { checked, resealed } = await resealAll(store, cipher);
      ctx.out(`${store.name}: ${resealed} of ${checked} re-encrypted under the new secret`);
    }
  } finally {
    await database.close();
  }
}
