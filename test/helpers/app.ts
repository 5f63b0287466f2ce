/**
 * Builds the real application for a test file on a fresh database, plus small helpers
 * to make accounts through the public API.
 */
import { PassThrough } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { usersService } from '../../src/modules/users/users.service.js';
import { createApiKeyCipher } from '../../src/security/api-keys.js';
import { LATEST_VERSION } from '../../src/versions/index.js';
import { createTestDatabase } from './database.js';

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Everything the app logged, one JSON line each. */
  logs: string[];
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    BOOKING_SECRET: TEST_SECRET,
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '0',
    // Suites send wrong credentials on purpose, and sign up many accounts from one address;
    // the throttle and the sign-up limit have their own tests.
    AUTH_FAILURES_PER_ADDRESS: '0',
    SIGNUPS_PER_ADDRESS: '0',
    // Webhook suites start their own dispatcher (and a sandbox for local receivers).
    WEBHOOK_DISPATCH: 'false',
    // One instance on this host's clock: no skew between it and the database to allow for.
    POLL_HORIZON_MARGIN_MS: '0',
    // The hold suite turns the sweeper on with a short hold.
    ORDER_HOLD_SWEEP: 'false',
    // The retention suite runs its sweep itself.
    RETENTION_SWEEP: 'false',
    DATA_DIR: path.join(os.tmpdir(), 'booking-test-data'),
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'versions' | 'versionChanges'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(env);
  const logs: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) =>
    logs.push(...chunk.toString().split('\n').filter(Boolean)),
  );
  const app = await buildApp(config, { database, logStream, ...deps });
  await app.ready();
  const testApp: TestApp = {
    app,
    database,
    config,
    logs,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
  rememberTestApp(app, database, config);
  return testApp;
}

type BuiltWith = Pick<TestApp, 'database' | 'config'>;
const builtWith = new WeakMap<FastifyInstance, BuiltWith>();

/** Notes what a test app was built with, for helpers given only the app (createTestApp does). */
export function rememberTestApp(app: FastifyInstance, database: Database, config: Config): void {
  builtWith.set(app, { database, config });
}

export function testAppOf(app: FastifyInstance): BuiltWith {
  const found = builtWith.get(app);
  if (!found) throw new Error('unknown app: build it with createTestApp or rememberTestApp');
  return found;
}

let sequence = 0;
export const uniqueEmail = (label = 'user') =>
  `${label}.${process.pid}.${Date.now().toString(36)}.${++sequence}@example.com`;

export interface Account {
  id: string;
  email: string;
  password: string;
  apiKey: string;
  roles: string[];
}

/** Signs up through POST /api/users. */
export async function signUp(
  app: FastifyInstance,
  fields: { name?: string; email?: string; password?: string; roles?: string[] } = {},
): Promise<Account> {
  const body = {
    name: fields.name ?? 'Test User',
    email: fields.email ?? uniqueEmail(),
    password: fields.password ?? 'correct horse battery',
    ...(fields.roles ? { roles: fields.roles } : {}),
  };
  const response = await app.inject({ method: 'POST', url: '/api/users', payload: body });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
  const user = response.json();
  return {
    id: user.id,
    email: body.email,
    password: body.password,
    apiKey: user.apiKey,
    roles: user.roles,
  };
}

/** An admin, made the only way admins are made: by the trusted (CLI) path. */
export async function createAdmin(t: TestApp): Promise<Account> {
  const users = usersService({
    db: t.database.db,
    cipher: createApiKeyCipher(TEST_SECRET),
    latestVersion: LATEST_VERSION,
  });
  const email = uniqueEmail('admin');
  const password = 'admin password 1';
  const user = await users.create(
    { name: 'Admin', email, password, roles: ['ROLE_ADMIN'] },
    { trusted: true },
  );
  return { id: user.id, email, password, apiKey: user.apiKey!, roles: user.roles };
}

/** `app.inject` with an API key. */
export function as(
  app: FastifyInstance,
  account: Pick<Account, 'apiKey'> | null,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const headers = {
    ...(options.headers ?? {}),
    ...(account ? { 'x-api-key': account.apiKey } : {}),
  };
  return app.inject({ ...options, headers });
}

export function basic(email: string, password: string): string {
  return 'Basic ' + Buffer.from(`${email}:${password}`).toString('base64');
}

/** Asserts the documented problem+json shape and returns the body. */
export function expectProblem(
  response: LightMyRequestResponse,
  status: number,
  code: string,
): Record<string, unknown> & { errors?: { in: string; name: string; detail: string }[] } {
  const body = response.json();
  const context = `${response.statusCode} ${response.body}`;
  if (response.statusCode !== status || body.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${context}`);
  }
  if (!String(response.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected problem+json, got ${String(response.headers['content-type'])}`);
  }
  for (const member of ['type', 'title', 'status', 'detail', 'code']) {
    if (!(member in body)) throw new Error(`problem lacks ${member}: ${context}`);
  }
  return body as ReturnType<typeof expectProblem>;
}

/**
 * Pins an account to an API version the way an operator does (there is no endpoint): the
 * row changed by hand, with the notification that makes every instance drop its cached key
 * (docs/operations.md). On PostgreSQL the notification reaches the instance a moment after
 * the commit: this waits until the account's requests show the new pin.
 */
export async function pinApiVersion(
  t: TestApp,
  account: Pick<Account, 'id' | 'apiKey'>,
  version: string,
): Promise<void> {
  const resolved = async () =>
    (await as(t.app, account, { method: 'GET', url: '/api/users/me' })).headers['x-api-version'];
  const before = await resolved();
  await t.database.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('users')
      .set({ api_version: version })
      .where('id', '=', account.id)
      .execute();
    await sql`select pg_notify('booking_callers', ${account.id})`.execute(tx);
  });
  const after = await t.database.db
    .selectFrom('users')
    .select('api_version')
    .where('id', '=', account.id)
    .executeTakeFirstOrThrow();
  if (after.api_version === before) return;
  for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
    if ((await resolved()) !== before) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
