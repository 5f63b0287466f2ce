/**
 * `cli outbox`: lists the emails not sent yet (pending or given up), oldest first, so an
 * operator can see what is queued when SMTP_URL is unset or the SMTP server is refusing.
 */
import { openAppDatabase } from '../app.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { outboxRepository, type OutboxRow } from '../mail/outbox.repository.js';

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

export interface PrintOutboxOptions {
  print?: (text: string) => void;
  /** How the database is opened (tests hand in theirs); default the configured one. */
  open?: (config: Config) => Promise<Database>;
}

export async function printOutbox(
  config: Config,
  { print = console.log, open = (c) => openAppDatabase(c, 'cli outbox') }: PrintOutboxOptions = {},
): Promise<void> {
  const database = await open(config);
  try {
    const rows = await outboxRepository(database.db).listUnsent(LIMIT);
    if (!config.smtpUrl) print('SMTP_URL is not set: email stays queued until it is.');
    print(formatOutbox(rows));
  } finally {
    await database.close();
  }
}
