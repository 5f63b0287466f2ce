/**
 * `cli seed`: fills the configured database (PostgreSQL, or the embedded one) with
 * realistic data for demos and benchmarks: sellers with guides and experiences, events over
 * two years, orders of one to three items. Set-based SQL in one transaction, deterministic
 * for a given --seed; progress on stderr, the summary on stdout.
 *
 *   cli seed [--sellers 1000] [--orders 1000000] [--experiences N] [--events N]
 *            [--customers N] [--seed 1] [--from YYYY-MM-DD] [--batch 50000]
 *            [--reset [--yes-destroy-production-data]]
 *
 * --reset empties every table, accounts included. With BOOKING_ENV=production it also needs
 * the confirmation flag, so a shell that happens to hold the production environment cannot
 * wipe it with a command meant for a test database.
 *
 * Beside a running embedded server it refuses (the one command that does): run there, its
 * statements would hold the server's event loop for minutes, with health checks unanswered,
 * SIGTERM waiting, and the data directory's lock no longer beating (db/data-dir-lock.ts),
 * which lets a process in another container take the directory over.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../security/passwords.js';
import { configuredCipher } from '../security/secret.js';
import { LATEST_VERSION } from '../versions/index.js';
import { seedDatabase, SeedRefusedError, type SeedSummary } from './seed/generate.js';
import { parseSeedArgs, SeedUsageError, type SeedOptions } from './seed/options.js';
import { createProgress, duration, type Progress } from './seed/progress.js';
import { lineStream, type CommandContext } from './context.js';

/** The flag `--reset` needs with BOOKING_ENV=production (docs/operations.md). */
export const RESET_CONFIRMATION = '--yes-destroy-production-data';

export const SEED_USAGE = `seed [--sellers 1000] [--orders 1000000] [--experiences 5/seller]
       [--events 40/experience] [--customers orders/50] [--seed 1] [--from YYYY-MM-DD]
       [--batch 50000] [--reset [${RESET_CONFIRMATION}]]
       fill the database with realistic data (deterministic per --seed); --reset empties it
       first, and in production only with ${RESET_CONFIRMATION}`;

/**
 * The seed's options, the confirmation taken out first (it is this command's business, not
 * the generator's); refuses a production reset without it before anything is opened.
 */
function checkedOptions(ctx: CommandContext, args: string[]): SeedOptions {
  const confirmed = args.includes(RESET_CONFIRMATION);
  const options = parseSeedArgs(args.filter((arg) => arg !== RESET_CONFIRMATION));
  if (confirmed && !options.reset)
    throw new SeedUsageError(`${RESET_CONFIRMATION} only goes with --reset`);
  if (options.reset && !confirmed && ctx.config.env === 'production')
    throw new SeedRefusedError(
      `Refusing --reset with BOOKING_ENV=production: it empties every table, accounts included. Add ${RESET_CONFIRMATION} if that is what you mean.`,
    );
  return options;
}

/** Seeds the context's database with its secret; returns what was made. */
export async function seed(
  ctx: CommandContext,
  options: SeedOptions,
  // In the cli's own process, a bar on a terminal; run by a server, lines sent back.
  progress: Progress = createProgress(ctx.via ? lineStream(ctx.err) : process.stderr),
): Promise<SeedSummary & { password: string }> {
  const { config } = ctx;
  // Migrations first, on PostgreSQL too: a seed of an outdated schema would only fail later.
  const database = await ctx.open('cli seed', { migrate: true });
  try {
    // One password for every seeded account (hashing a million would take hours).
    const password = randomBytes(12).toString('base64url');
    const summary = await seedDatabase(database.db, options, {
      cipher: configuredCipher(config),
      passwordHash: await hashPassword(password),
      apiVersion: LATEST_VERSION,
      progress,
    });
    return { ...summary, password };
  } finally {
    await database.close();
  }
}

/** `cli seed ...`: a wrong flag or a non-empty database is one line on stderr, exit code 1. */
export async function seedCommand(ctx: CommandContext, args: string[]): Promise<number> {
  let options: SeedOptions;
  let result: Awaited<ReturnType<typeof seed>>;
  try {
    if (ctx.via)
      throw new SeedRefusedError(
        `${ctx.via}: seed does not run inside a running embedded server: its statements would ` +
          "hold the server's event loop for minutes (health checks unanswered, SIGTERM waiting, " +
          "the data directory's lock heartbeat stopped). Stop the server first, then run cli seed.",
      );
    options = checkedOptions(ctx, args);
    result = await seed(ctx, options);
  } catch (error) {
    if (!(error instanceof SeedUsageError || error instanceof SeedRefusedError)) throw error;
    ctx.err(
      error instanceof SeedUsageError
        ? `${error.message}\n\nUsage: cli ${SEED_USAGE}`
        : error.message,
    );
    return 1;
  }
  const { counts } = result;
  ctx.out(
    [
      `Seeded in ${duration(result.milliseconds)} (seed ${options.seed}, departures from ${options.from}):`,
      ...Object.entries(counts).map(
        ([table, n]) => `  ${table.padEnd(12)} ${n.toLocaleString('en-US')}`,
      ),
      `Seller with most orders: ${result.biggestSeller}`,
      `Every seeded account's password: ${result.password}`,
      `API keys: an admin reads any account's key with GET /api/users/{id}/apiKey.`,
    ].join('\n'),
  );
  return 0;
}
