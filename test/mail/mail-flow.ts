/**
 * For the mail tests that go through the public API (book over HTTP, run a dispatcher, read
 * what an SMTP server received and the outbox rows): a dispatcher on the app's database, a
 * relay that answers each command with a scripted reply (smtp-server cannot refuse the DATA
 * command itself), and "time passes" for the outbox.
 */
import net from 'node:net';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type MailLogger,
} from '../../src/mail/dispatcher.js';

export const FROM = 'Bookings <bookings@example.test>';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  details: object;
  message: string;
}

/** A logger that keeps what it is told. */
export function recordingLogger(): MailLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (details, message) => lines.push({ level: 'info', details, message }),
    warn: (details, message) => lines.push({ level: 'warn', details, message }),
    error: (details, message) => lines.push({ level: 'error', details, message }),
  };
}

export function mailDispatcher(
  database: Database,
  port: number,
  options: Partial<DispatcherOptions> = {},
): Dispatcher {
  return createDispatcher({
    db: database.db,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: FROM,
    logger: recordingLogger(),
    ...options,
  });
}

/** "Time passes": every pending message is due now. */
export const makeDue = (database: Database) =>
  database.db
    .updateTable('outbox')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('status', '=', 'pending')
    .execute();

export const outboxOf = (database: Database, orderIds: readonly string[]) =>
  database.db
    .selectFrom('outbox')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export async function dbNow(database: Database): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(database.db);
  return rows[0]!.now;
}

/** The replies a scripted relay gives; unset: it accepts. */
export interface Script {
  mail?: string;
  rcpt?: string;
  data?: string;
}

export interface ScriptedRelay {
  port: number;
  /** Messages whose data it accepted. */
  accepted: number;
  script: Script;
  close(): Promise<void>;
}

/**
 * A relay speaking plain SMTP without PIPELINING, one reply per command from `script`
 * (changeable while it runs), accepting data after a 354.
 */
export async function scriptedRelay(script: Script): Promise<ScriptedRelay> {
  const sockets = new Set<net.Socket>();
  const relay: ScriptedRelay = { port: 0, accepted: 0, script, close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 relay.test ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            relay.accepted++;
            reply('250 2.0.0 queued');
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-relay.test\r\n250 8BITMIME');
        else if (verb === 'HELO') reply('250 relay.test');
        else if (verb === 'MAIL') reply(relay.script.mail ?? '250 2.1.0 ok');
        else if (verb === 'RCPT') reply(relay.script.rcpt ?? '250 2.1.5 ok');
        else if (verb === 'DATA') {
          const answer = relay.script.data ?? '354 go ahead';
          inData = answer.startsWith('354');
          reply(answer);
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok'); // RSET, NOOP
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.port = (server.address() as net.AddressInfo).port;
  relay.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return relay;
}
