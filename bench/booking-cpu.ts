/**
 * `npx tsx bench/booking-cpu.ts [bench flags] [--before DIR] [--without-index NAME,...]
 * [--rounds N]`: what one booking costs in CPU, compared in alternating rounds (the machine
 * is shared, so throughput alone says little): `POST /api/orders` spread over departures,
 * as `npm run bench` books, at the first of `--connections`, for `--duration` seconds a round.
 * Per confirmed booking: the service's own CPU time and that of the PostgreSQL backends
 * serving the bench database (read from /proc, so other work on the machine is not counted).
 *
 * - `--before DIR`: a built bundle (a copy of an older `dist/`) against the current one,
 *   both started as `npm start` starts them, on the same database;
 * - `--without-index NAME`: the current build with the named indexes and without them
 *   (dropped before and made again after each such round): what maintaining them costs. A
 *   NAME may also be a table constraint (a foreign key, say): dropped and added back the same
 *   way, for what checking it costs.
 *
 * pgbench's TPC-B-like transaction runs on a scratch database after the variants in every
 * round, with its backends' CPU per transaction, for the budget's ratio (DESIGN.md section
 * 10): each round's bookings against that round's TPC-B, so a minute in which the shared
 * machine is slower moves both sides of the ratio (one TPC-B run after all the rounds put
 * the same build at 2.05x in one run and 2.9x in the next: docs/performance.md, issue 27,
 * twenty-seventh pass). Prints a Markdown table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { createCredentials } from './accounts.js';
import { bookingScenarios } from './bookings.js';
import { benchSetup, recordCreatedEvents } from './database.js';
import { runLoad } from './load.js';
import { benchOptions } from './options.js';
import { initTpcb, runPgbench } from './pgbench.js';
import { processCpuMs } from './cpu-time.js';
import { startArgs, startService, type Running } from './processes.js';

const OWN = ['before', 'without-index', 'rounds'];
const { values: own } = parseArgs({
  args: process.argv.slice(2),
  options: {
    before: { type: 'string' },
    'without-index': { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
  strict: false,
  allowPositionals: true,
});
// The bench's own flags, without ours and their values.
const isOwn = (arg: string | undefined) => OWN.some((name) => arg === `--${name}`);
const flags = process.argv.slice(2).filter((arg, i, all) => !isOwn(arg) && !isOwn(all[i - 1]));
const options = benchOptions(flags, process.env);
const rounds = Number(own.rounds);
const log = (line: string) => process.stderr.write(`[booking-cpu] ${line}\n`);
/** CPU ms of the PostgreSQL backends connected to database `name` (by their title). */
function backendsCpuMs(name: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (title.startsWith('postgres: ') && title.split(' ').includes(name))
        found.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // the process ended while we read
    }
  }
  return found;
}

/** CPU the backends of `name` spent while `work` ran (backends that came and went included). */
async function backendsSpent<T>(name: string, work: () => Promise<T>) {
  const before = backendsCpuMs(name);
  let last = new Map(before);
  const sampler = setInterval(() => {
    for (const [pid, ms] of backendsCpuMs(name)) last.set(pid, ms);
  }, 200);
  const result = await work();
  clearInterval(sampler);
  last = new Map([...last, ...backendsCpuMs(name)]);
  let spent = 0;
  for (const [pid, ms] of last) spent += ms - (before.get(pid) ?? 0);
  return { result, spent };
}

const dbName = new URL(options.databaseUrl).pathname.slice(1);
const { record, env } = await benchSetup(options, log);
const connections = options.connections[0]!;
const indexes = own['without-index'] ? String(own['without-index']).split(',') : [];
const variants: { name: string; args: string[]; withoutIndexes: boolean }[] = own.before
  ? [
      {
        name: `before (${String(own.before)})`,
        args: [...startArgs().slice(0, -1), path.resolve(String(own.before), 'bundle/server.js')],
        withoutIndexes: false,
      },
      { name: 'current', args: startArgs(), withoutIndexes: false },
    ]
  : [
      { name: 'as built', args: startArgs(), withoutIndexes: false },
      { name: `without ${indexes.join(', ')}`, args: startArgs(), withoutIndexes: true },
    ];

const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 2 });
const admin = new pg.Client({ connectionString: options.databaseUrl });
await admin.connect();
/** How to drop each named index or constraint, and how to make it again. */
const definitions = new Map<string, { drop: string; make: string }>();
for (const name of indexes) {
  const { rows } = await admin.query<{ drop: string; make: string }>(
    `select format('drop index %I', indexname) as drop, indexdef as make
       from pg_indexes where indexname = $1
     union all
     select format('alter table %s drop constraint %I', conrelid::regclass, conname),
            format('alter table %s add constraint %I %s', conrelid::regclass, conname,
                   pg_get_constraintdef(oid))
       from pg_constraint where conname = $1 and contype <> 'p'`,
    [name],
  );
  if (rows.length !== 1) throw new Error(`no index or constraint (or more than one) named ${name}`);
  definitions.set(name, rows[0]!);
}

// TPC-B's tables on a scratch database of the same server, made before any round is measured.
const tpcbName = `${dbName}_tpcb`;
await admin.query(`drop database if exists ${pg.escapeIdentifier(tpcbName)} with (force)`);
await admin.query(`create database ${pg.escapeIdentifier(tpcbName)}`);
const tpcbUrl = new URL(options.databaseUrl);
tpcbUrl.pathname = `/${tpcbName}`;
await initTpcb(tpcbUrl.toString(), 10);
/** TPC-B's PostgreSQL CPU ms per transaction, one per round. */
const tpcbRounds: number[] = [];
async function tpcbRound(): Promise<void> {
  const tpcb = await backendsSpent(tpcbName, () =>
    runPgbench(tpcbUrl.toString(), 'tpcb-like', connections, options.durationSec),
  );
  tpcbRounds.push(Math.round((tpcb.spent / (tpcb.result.tps * options.durationSec)) * 1000) / 1000);
  log(`TPC-B: ${Math.round(tpcb.result.tps)} tps, ${tpcbRounds.at(-1)} ms per transaction`);
}

const services: Running[] = [];
const measured = variants.map(() => [] as { bps: number; node: number; pg: number }[]);
try {
  for (const variant of variants) services.push(await startService(env, variant.args));
  const credentials = await createCredentials(services[0]!.baseUrl, env, record.biggestSeller);
  const [spread] = await bookingScenarios(
    database.db,
    services[0]!.baseUrl,
    credentials,
    (rounds + 1) * variants.length,
    (ids) => recordCreatedEvents(options.databaseUrl, ids),
  );
  let run = 0;
  const load = (service: Running, durationSec: number) =>
    runLoad({
      url: service.baseUrl,
      connections,
      durationSec,
      method: 'POST',
      headers: { 'x-api-key': spread!.apiKey, 'content-type': 'application/json' },
      paths: ['/api/orders'],
      bodies: spread!.runs[run++]!.bodies,
    });
  // Warm-up: every service books once in a while, from the same bodies.
  for (const service of services) await load(service, options.warmupSec);
  for (let round = 0; round < rounds; round++) {
    for (const [i, variant] of variants.entries()) {
      const service = services[i]!;
      if (variant.withoutIndexes)
        for (const { drop } of definitions.values()) await admin.query(drop);
      try {
        const node = processCpuMs(service.pid);
        const { result, spent } = await backendsSpent(dbName, () =>
          load(service, options.durationSec),
        );
        const booked = result.statuses['201'] ?? 0;
        const per = (ms: number) => Math.round((ms / booked) * 1000) / 1000;
        measured[i]!.push({
          bps: Math.round(booked / result.durationSec),
          node: per(processCpuMs(service.pid) - node),
          pg: per(spent),
        });
        log(
          `${variant.name}: ${JSON.stringify(measured[i]!.at(-1))}, load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      } finally {
        if (variant.withoutIndexes)
          for (const { make } of definitions.values()) await admin.query(make);
      }
    }
    await tpcbRound();
  }
} finally {
  for (const service of services) await service.stop();
  await database.close();
  await admin.end();
}

/** The middle value, or the mean of the two middle ones, to the rounds' own precision. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const middle = Number.isInteger(mid)
    ? (sorted[mid - 1]! + sorted[mid]!) / 2
    : sorted[Math.floor(mid)]!;
  return Math.round(middle * 10_000) / 10_000;
};
const lines = [
  `Run ${new Date().toISOString()}: ${record.orders.toLocaleString('en')} orders, ${connections} connections, ` +
    `${rounds} rounds of ${options.durationSec} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} at the end.`,
  '',
  '| variant | bookings/s (rounds) | median | Node CPU ms/booking (rounds) | median | PostgreSQL CPU ms/booking (rounds) | median | / TPC-B of the round (rounds) | median |',
  '| --- | --- | ---: | --- | ---: | --- | ---: | --- | ---: |',
  ...variants.map((variant, i) => {
    const m = measured[i]!;
    const cells = (values: number[]) => `${values.join(', ')} | ${median(values)}`;
    const ratios = m.map((r, round) => Math.round((r.pg / tpcbRounds[round]!) * 100) / 100);
    return (
      `| ${variant.name} | ${cells(m.map((r) => r.bps))} | ${cells(m.map((r) => r.node))} | ` +
      `${cells(m.map((r) => r.pg))} | ${cells(ratios)} |`
    );
  }),
  '',
  `pgbench TPC-B-like at ${connections} clients after each round's variants: PostgreSQL CPU ` +
    `${tpcbRounds.join(', ')} ms per transaction (median ${median(tpcbRounds)}).`,
];
process.stdout.write(`${lines.join('\n')}\n`);
