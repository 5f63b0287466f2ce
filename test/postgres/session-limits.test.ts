/**
 * The server's pool bounds its sessions (SERVER_LIMITS, db/database.ts): a statement that
 * runs or waits past statement_timeout is cancelled and answered 503, a transaction left
 * idle past idle_in_transaction_session_timeout is ended (its locks with it) and the pool
 * goes on with a new connection. Sent as startup parameters, so they cost no statement. The
 * command line opens without them (its seeding runs long statements). Small limits are
 * given here so that nothing waits them out.
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../../src/app-database.js';
import { isConnectionError } from '../../src/db/errors.js';
import { openDatabase, SERVER_LIMITS } from '../../src/db/database.js';
import { toProblem } from '../../src/http/error-handler.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabaseUrl } from '../helpers/database.js';

let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  url = created.url;
  drop = () => created.drop();
});
afterAll(async () => drop());

/** `promise`, or a failure if it takes longer than `ms`: it hung. */
async function notHung<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const settings = async (db: Awaited<ReturnType<typeof openAppDatabase>>['db']) =>
  (
    await sql<{ statement: string; idle: string }>`
      select current_setting('statement_timeout') as statement,
        current_setting('idle_in_transaction_session_timeout') as idle`.execute(db)
  ).rows[0]!;

describe("the pool's session limits", () => {
  it('cancel a statement past the statement timeout, answered 503', async () => {
    const database = await openDatabase({
      kind: 'postgres',
      url,
      poolSize: 1,
      limits: { statementTimeoutMs: 200, idleInTransactionMs: 60_000 },
    });
    try {
      const error = await notHung(
        sql`select pg_sleep(10)`.execute(database.db).then(
          () => undefined,
          (e: unknown) => e as Error & { code?: string },
        ),
        5000,
      );
      expect(error?.code).toBe('57014');
      const body = toProblem(error, { id: 'req-1' } as FastifyRequest);
      expect(body).toMatchObject({ status: 503, code: 'service_unavailable' });
      // The connection serves on.
      expect((await sql<{ x: number }>`select 1 as x`.execute(database.db)).rows).toEqual([
        { x: 1 },
      ]);
    } finally {
      await database.close();
    }
  });

  it('end a transaction left idle, and the pool goes on with a new connection', async () => {
    const database = await openDatabase({
      kind: 'postgres',
      url,
      poolSize: 1,
      limits: { statementTimeoutMs: 30_000, idleInTransactionMs: 200 },
    });
    try {
      const error = await database.db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, 1000)); // idle, in the transaction
          await sql`select 1`.execute(trx);
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeDefined();
      expect(isConnectionError(error)).toBe(true);
      expect((await sql<{ x: number }>`select 1 as x`.execute(database.db)).rows).toEqual([
        { x: 1 },
      ]);
    } finally {
      await database.close();
    }
  });

  it("are the server's, not the command line's", async () => {
    const config = testConfig({ DATABASE_URL: url, MIGRATE_ON_START: 'false' });
    const server = await openAppDatabase(config, 'server');
    try {
      expect(await settings(server.db)).toEqual({
        statement: `${SERVER_LIMITS.statementTimeoutMs / 1000}s`,
        idle: `${SERVER_LIMITS.idleInTransactionMs / 60_000}min`,
      });
    } finally {
      await server.close();
    }
    const cli = await openAppDatabase(config, 'cli seed');
    try {
      expect(await settings(cli.db)).toEqual({ statement: '0', idle: '0' });
    } finally {
      await cli.close();
    }
  });

  it('are not sent with DATABASE_SESSION_LIMITS=false (a pooler that refuses them)', async () => {
    const config = testConfig({
      DATABASE_URL: url,
      MIGRATE_ON_START: 'false',
      DATABASE_SESSION_LIMITS: 'false',
    });
    const server = await openAppDatabase(config, 'server');
    try {
      expect(await settings(server.db)).toEqual({ statement: '0', idle: '0' });
    } finally {
      await server.close();
    }
  });
});
