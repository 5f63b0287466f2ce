/**
 * `npm run bench [-- --quick] [-- --json]`: the performance budget of DESIGN.md section 10,
 * measured. Prepares the database (bench/database.ts), builds and starts the service as
 * production runs it, then runs every scenario at each connection count with autocannon
 * in a separate process, and beside it the limit: pgbench on the same SQL for list
 * queries, bare node:http for one object; then ours against the floor server on every
 * read (bench/floor.ts: bodies checked equal, interleaved runs, server CPU per request;
 * PostgreSQL only); then the webhooks scenario (bench/webhooks.ts) on a scratch database.
 * Writes bench/results/<time>.{json,md} (and latest.*); prints the Markdown, or with --json
 * the JSON, on stdout. Progress: stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { createCredentials } from './accounts.js';
import { bookingScenarios, checkOversell, type BookingScenario } from './bookings.js';
import { benchSetup, recordCreatedEvents } from './database.js';
import { runLoad, type LoadResult } from './load.js';
import { benchOptions, onlyPicks } from './options.js';
import { initTpcb, runPgbench } from './pgbench.js';
import { sampleRss, startBareServer, startService, type Running } from './processes.js';
import { peerQueries, startDirectus } from './peer-directus.js';
import { compareWithFloor } from './floor.js';
import { floorFilter, floorQuestions } from './floor-questions.js';
import {
  checkBudget,
  floorBudgetLines,
  markdown,
  peerBudgetLine,
  type PeerResult,
  type Report,
  type ScenarioResult,
} from './report.js';
import { readScenarios, type ReadScenario } from './scenarios.js';
import { measureStartup } from './startup-time.js';
import { statementsPerRequest, type CountedRequest } from './statements.js';

const options = benchOptions(process.argv.slice(2), process.env);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const loadBefore = os.loadavg()[0]!;
const wanted = (name: string) => onlyPicks(options.only, name);
/** The floor comparison's questions `--only` picks (floor-questions.ts); undefined: none. */
const floorWanted = floorFilter(options.only);
/** Runs of each server per floor question (the median is kept). */
const FLOOR_ROUNDS = 3;

const { record, env } = await benchSetup(options, log);
log('measuring start-up');
const startup = await measureStartup(options.quick ? 3 : 5, env);

const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 2 });
const server = await startService(env);
const results: ScenarioResult[] = [];
let floor: Report['floor'];
/** Our read scenarios' paths by name (the peer is asked the same questions). */
const scenarioPaths: Record<string, string> = {};

/** The URL of `<bench database>_<suffix>` on the same server. */
function scratchUrl(suffix: string): string {
  const url = new URL(options.databaseUrl);
  url.pathname = `${url.pathname}_${suffix}`;
  return url.toString();
}

/** `<bench database>_<suffix>`, dropped and made empty; its URL. */
async function scratchDatabase(suffix: string): Promise<string> {
  const url = scratchUrl(suffix);
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return url;
}

/** Statuses that count as errors: anything not in `expected`, plus transport failures. */
function errorsOf(load: LoadResult, expected: string[]): number {
  const unexpected = Object.entries(load.statuses)
    .filter(([code]) => !expected.includes(code))
    .reduce((n, [, count]) => n + count, 0);
  return load.socketErrors + load.timeouts + unexpected;
}

async function measure(job: {
  paths: string[];
  apiKey: string;
  connections: number;
  method?: 'GET' | 'POST';
  bodies?: string[];
  seconds?: number;
}): Promise<LoadResult & { rps: number; rssMb: number }> {
  const stopSampling = sampleRss(server.pid);
  const load = await runLoad({
    url: server.baseUrl,
    connections: job.connections,
    durationSec: job.seconds ?? options.durationSec,
    method: job.method ?? 'GET',
    headers: {
      'x-api-key': job.apiKey,
      ...(job.bodies ? { 'content-type': 'application/json' } : {}),
    },
    paths: job.paths,
    ...(job.bodies ? { bodies: job.bodies } : {}),
  });
  return { ...load, rps: load.requests / load.durationSec, rssMb: stopSampling() };
}

async function readScenario(scenario: ReadScenario): Promise<void> {
  let bare: Running | undefined;
  if (scenario.kind === 'object') bare = await startBareServer(scenario.bodyBytes);
  try {
    await measure({ ...scenario, connections: 8, seconds: options.warmupSec });
    for (const connections of options.connections) {
      const api = await measure({ ...scenario, connections });
      let limitRps: number;
      let preparedRps: number | undefined;
      let databaseRps: number | undefined;
      if (scenario.kind === 'list') {
        const pgbench = await runPgbench(
          options.databaseUrl,
          scenario.sql,
          connections,
          options.durationSec,
        );
        limitRps = pgbench.tps;
        // For the record (not the budget): the same SQL with plans cached, as prepared.
        if (!options.quick) {
          preparedRps = (
            await runPgbench(
              options.databaseUrl,
              scenario.sql,
              connections,
              options.durationSec,
              'prepared',
            )
          ).tps;
        }
      } else {
        // What the API adds to its database work: the request's own SQL through pgbench.
        databaseRps = (
          await runPgbench(options.databaseUrl, scenario.sql, connections, options.durationSec)
        ).tps;
        const load = await runLoad({
          url: bare!.baseUrl,
          connections,
          durationSec: options.durationSec,
          method: 'GET',
          headers: {},
          paths: ['/'],
        });
        limitRps = load.requests / load.durationSec;
      }
      const result: ScenarioResult = {
        name: scenario.name,
        kind: scenario.kind,
        connections,
        rps: api.rps,
        p50Ms: api.p50Ms,
        p99Ms: api.p99Ms,
        errors: errorsOf(api, ['200']),
        statuses: api.statuses,
        rssMb: api.rssMb,
        limit: scenario.kind === 'list' ? 'pgbench' : 'node:http',
        limitRps,
        ratio: api.rps / limitRps,
        ...(preparedRps === undefined ? {} : { limitPreparedRps: preparedRps }),
        ...(databaseRps === undefined ? {} : { databaseRps }),
        ...statementsOf(scenario.name),
      };
      results.push(result);
      log(
        `${scenario.name} @${connections}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms} ms, ` +
          `${result.limit} ${limitRps.toFixed(0)}/s, ratio ${(result.ratio! * 100).toFixed(0)}%, ` +
          `errors ${result.errors}, RSS ${result.rssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    await bare?.stop();
  }
}

/** Statements per request of each scenario (bench/statements.ts), filled before the loads. */
let statements = new Map<string, number>();
const statementsOf = (name: string) =>
  statements.has(name) ? { statements: statements.get(name)! } : {};

/**
 * pgbench's TPC-B-like transaction at each connection count, once per run, on a scratch
 * database of the same server: what a five-statement write transaction costs here, which
 * bookings are compared with.
 */
const tpcbAt = new Map<number, number>();
async function tpcb(connections: number): Promise<number> {
  if (!tpcbAt.has(connections)) {
    if (tpcbAt.size === 0) {
      log('preparing pgbench TPC-B tables (scale 10)');
      await initTpcb(await scratchDatabase('tpcb'), 10);
    }
    const url = scratchUrl('tpcb');
    tpcbAt.set(
      connections,
      (await runPgbench(url, 'tpcb-like', connections, options.durationSec)).tps,
    );
  }
  return tpcbAt.get(connections)!;
}

async function bookingScenario(scenario: BookingScenario, customerId: string): Promise<void> {
  for (const [i, connections] of options.connections.entries()) {
    const run = scenario.runs[i]!;
    const api = await measure({
      paths: ['/api/orders'],
      method: 'POST',
      bodies: run.bodies,
      apiKey: scenario.apiKey,
      connections,
    });
    const check = await checkOversell(database.db, customerId, run.eventId);
    const expected = run.eventId ? ['201', '409'] : ['201'];
    const limitRps = await tpcb(connections);
    const result: ScenarioResult = {
      name: scenario.name,
      kind: 'booking',
      connections,
      rps: api.rps,
      p50Ms: api.p50Ms,
      p99Ms: api.p99Ms,
      errors: errorsOf(api, expected),
      statuses: api.statuses,
      rssMb: api.rssMb,
      confirmed: api.statuses['201'] ?? 0,
      refused: api.statuses['409'] ?? 0,
      oversold: check.overCapacity + check.mismatched,
      ...(run.eventId ? { reserved: check.reserved } : {}),
      limit: 'pgbench TPC-B',
      limitRps,
      ratio: api.rps / limitRps,
      ...statementsOf(scenario.name),
    };
    results.push(result);
    log(
      `${scenario.name} @${connections}: ${result.rps.toFixed(0)} req/s, ${result.confirmed} confirmed, ` +
        `${result.refused} refused, oversold ${result.oversold}, errors ${result.errors}`,
    );
  }
}

try {
  const credentials = await createCredentials(server.baseUrl, env, record.biggestSeller);
  log('preparing scenarios');
  const reads = await readScenarios(database.db, server.baseUrl, credentials, 500);
  for (const read of reads) scenarioPaths[read.name] = read.paths[0]!;
  const bookings = await bookingScenarios(
    database.db,
    server.baseUrl,
    credentials,
    options.connections.length,
    (ids) => recordCreatedEvents(options.databaseUrl, ids),
  );
  log('counting statements per request');
  const counted: CountedRequest[] = reads.map((s) => ({
    name: s.name,
    method: 'GET',
    path: s.paths[0]!,
    apiKey: s.apiKey,
  }));
  // The spread scenario's first two bookings (a warm-up and the counted one); the one-event
  // scenario books the same way, and its seats are counted exactly afterwards.
  const spread = bookings.find((b) => b.name.endsWith('spread'));
  if (spread) {
    const [warmUp, counted1] = spread.runs[0]!.bodies;
    counted.push({
      name: spread.name,
      method: 'POST',
      path: '/api/orders',
      apiKey: spread.apiKey,
      bodies: [warmUp!, counted1!],
    });
  }
  statements = await statementsPerRequest(env, counted);
  for (const scenario of reads) if (wanted(scenario.name)) await readScenario(scenario);
  // Before the bookings: they add orders, and both must read the same ones.
  if (floorWanted) {
    const questions = await floorQuestions(database.db, server.baseUrl, credentials, reads);
    floor = await compareWithFloor({
      databaseUrl: options.databaseUrl,
      // The service's default DATABASE_POOL_SIZE, or --pool for both.
      poolSize: options.poolSize ?? 10,
      ours: server,
      questions: questions.filter((q) => floorWanted(q.name)),
      rounds: FLOOR_ROUNDS,
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      log,
    });
  }
  for (const scenario of bookings)
    if (wanted(scenario.name)) await bookingScenario(scenario, credentials.customerId);
} finally {
  await server.stop();
}

/**
 * Webhooks (bench/webhooks.ts): bookings/s with and without stored domain events, and
 * deliveries/s, on a scratch database of the same server (its bookings must not change the
 * seeded data the other scenarios read).
 */
async function webhooksScenario(): Promise<unknown> {
  const url = await scratchDatabase('webhooks');
  const run = spawnSync('npx', ['tsx', 'bench/webhooks.ts'], {
    env: { ...process.env, BENCH_DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`bench/webhooks.ts failed: ${run.stderr}`);
  return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as unknown;
}
const webhooks = wanted('webhooks') ? await webhooksScenario() : undefined;
if (webhooks) log(`webhooks: ${JSON.stringify(webhooks)}`);

const { rows } = await sql<{ version: string }>`select version()`.execute(database.db);
await database.close();

/**
 * `--peer directus`: the three questions both APIs answer, asked of Directus over a copy of
 * the bench database (after ours: the copy needs the source database without sessions).
 */
async function peerScenario(): Promise<PeerResult> {
  const peer = await startDirectus(options.databaseUrl, peerQueries(scenarioPaths), log);
  try {
    const queries: PeerResult['queries'] = [];
    for (const [name, peerPath] of Object.entries(peer.paths)) {
      const check = await fetch(`${peer.baseUrl}${peerPath}`, { headers: peer.headers });
      if (!check.ok) throw new Error(`Directus ${peerPath}: ${check.status} ${await check.text()}`);
      const job = {
        url: peer.baseUrl,
        connections: 8,
        method: 'GET' as const,
        headers: peer.headers,
        paths: [peerPath],
      };
      await runLoad({ ...job, durationSec: options.warmupSec });
      const stopSampling = sampleRss(peer.pid);
      const load = await runLoad({ ...job, durationSec: options.durationSec });
      const ours = results.find((r) => r.name === name && r.connections === 8);
      const errors = errorsOf(load, ['200']);
      if (errors > 0)
        throw new Error(`Directus ${name}: ${errors} errors ${JSON.stringify(load.statuses)}`);
      queries.push({
        name,
        oursRps: ours?.rps ?? Number.NaN,
        peerRps: load.requests / load.durationSec,
        peerP99Ms: load.p99Ms,
        peerRssMb: stopSampling(),
      });
      log(`directus ${name} @8: ${queries.at(-1)!.peerRps.toFixed(0)} req/s`);
    }
    return { name: 'Directus 12.4', queries };
  } finally {
    await peer.stop();
  }
}
const peer = options.peer ? await peerScenario() : undefined;
const report: Report = {
  generatedAt: new Date().toISOString(),
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: /PostgreSQL [\d.]+/.exec(rows[0]!.version)?.[0] ?? rows[0]!.version,
    loadBefore,
    loadAfter: os.loadavg()[0]!,
  },
  settings: {
    quick: options.quick,
    durationSec: options.durationSec,
    connections: options.connections,
    poolSize: options.poolSize ?? null,
  },
  data: {
    orders: record.orders,
    sellers: record.sellers,
    seed: record.seed,
    from: record.from,
    seller: record.biggestSeller,
  },
  startup,
  scenarios: results,
  ...(webhooks ? { webhooks } : {}),
  ...(peer ? { peer } : {}),
  ...(floor ? { floor } : {}),
  budget: [
    ...checkBudget(results, startup),
    ...(floor ? floorBudgetLines(floor.questions, floor.connections) : []),
    ...(peer ? [peerBudgetLine(peer)] : []),
  ],
};
const text = markdown(report);
fs.mkdirSync(options.outDir, { recursive: true });
const stamp = report.generatedAt.replace(/[:.]/g, '-');
for (const name of [stamp, 'latest']) {
  fs.writeFileSync(path.join(options.outDir, `${name}.json`), JSON.stringify(report, null, 2));
  fs.writeFileSync(path.join(options.outDir, `${name}.md`), text);
}
process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : text);
