/**
 * `cli outbox`: lists the emails not sent yet (pending or given up), oldest first, so an
 * operator can see what is queued when SMTP_URL is unset or the SMTP server is refusing
 * (beside a running embedded server too: it then runs there, cli/context.ts).
 * `cli outbox retry <id>...|--failed` queues given-up emails again, once the relay is fixed:
 * without it a failed email could never be sent (one per order and kind).
 */
import { parseArgs } from 'node:util';
import { outboxRepository, type OutboxRow } from '../mail/outbox.repository.js';
import { CommandRefusedError, UsageError, type CommandContext } from './context.js';

const LIMIT = 1000;
const ERROR_WIDTH = 80;

const oneLine = (text: string, width: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/** The listing as text: one aligned row per message under a header. */
export function formatOutbox(rows: OutboxRow[], limit: number = LIMIT): string {
  if (rows.length === 0) return 'No unsent email.';
  const table = [
    ['ID', 'RECIPIENT', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
    ...rows.map((row) => [
      row.id,
      row.recipient,
      row.status,
      String(row.attempts),
      row.status === 'pending' ? row.next_attempt_at.toISOString() : '-',
      row.last_error ? oneLine(row.last_error, ERROR_WIDTH) : '-',
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((r) => r[column]!.length)));
  const lines = table.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  if (rows.length >= limit) lines.push(`(the oldest ${limit} shown)`);
  return lines.join('\n');
}

/** `cli outbox`: the listing, and why nothing moves when no mail transport is configured. */
export async function printOutbox(ctx: CommandContext): Promise<void> {
  const database = await ctx.open('cli outbox');
  try {
    const rows = await outboxRepository(database.db).listUnsent(LIMIT);
    if (!ctx.config.smtpUrl) ctx.out('SMTP_URL is not set: email stays queued until it is.');
    ctx.out(formatOutbox(rows));
  } finally {
    await database.close();
  }
}

/** `cli outbox retry <id>...` or `--failed`: failed emails back to pending, due now, attempts 0. */
export async function retryOutbox(ctx: CommandContext, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { failed: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (values.failed === positionals.length > 0)
    throw new UsageError('outbox retry needs the ids of failed emails, or --failed (not both)');
  const database = await ctx.open('cli outbox retry');
  try {
    const queued = await outboxRepository(database.db).requeueFailed(
      values.failed ? undefined : positionals,
    );
    const missing = positionals.filter((id) => !queued.includes(id));
    for (const id of queued) ctx.out(`queued ${id}`);
    if (!ctx.config.smtpUrl) ctx.out('SMTP_URL is not set: email stays queued until it is.');
    if (missing.length > 0)
      throw new CommandRefusedError(`not a failed email: ${missing.join(', ')}`);
    if (queued.length === 0) ctx.out('No failed email.');
  } finally {
    await database.close();
  }
}
