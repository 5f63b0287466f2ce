/**
 * `cli prune`: runs the retention sweep once, now (src/retention.ts), and says what it
 * deleted: for an operator who turned the sweep off on the servers (RETENTION_SWEEP=false)
 * and runs it from a timer instead, or who lowered RETENTION_DAYS and wants it applied now.
 */
import { idempotencyService } from '../modules/idempotency/index.js';
import { pruneAll, retentionPruners } from '../retention.js';
import { configuredFingerprintKey } from '../security/secret.js';
import type { CommandContext } from './context.js';

export async function pruneCommand(ctx: CommandContext): Promise<void> {
  const database = await ctx.open('cli prune');
  try {
    const idempotency = idempotencyService({
      db: database.db,
      fingerprintKey: configuredFingerprintKey(ctx.config),
    });
    const deleted = await pruneAll(
      retentionPruners(database.db, idempotency, ctx.config.retention.ms),
    );
    const days = Math.round(ctx.config.retention.ms / 86_400_000);
    ctx.out(`retention: ${days} days (idempotency keys: 24 h)`);
    for (const [table, n] of Object.entries(deleted)) ctx.out(`deleted ${n} from ${table}`);
  } finally {
    await database.close();
  }
}
