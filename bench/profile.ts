/**
 * `npx tsx bench/profile.ts [bench flags]`: where the CPU of a request goes. For each
 * scenario of `npm run bench` (same data, same callers; `--only` picks some) at the first
 * of `--connections` (default 8): a fresh service started with `npm start`'s flags plus
 * `--cpu-prof`, a warm-up, then the load; meanwhile the CPU time of the service, of every
 * PostgreSQL process and of the whole machine is read from /proc, so each request's cost
 * is split between Node, PostgreSQL and the rest (the load generator). Beside each read, the
 * same SQL through node:http + pg with nothing else (bare-sql-server.ts) and through
 * pgbench: what the machine leaves any Node server, and what ours takes. The service runs the
 * unbundled build (dist/server.js, the same code as the bundle) so each function's package
 * shows in the profile. Writes bench/results/profile-<time>.md (and the .cpuprofile files,
 * which Chrome's DevTools open) and prints the Markdown. `--perf`: the same runs sampled by
 * Linux perf (Debian's linux-perf) instead, on-CPU time only, the kernel's included
 * (perf-samples.ts says why that differs from V8's profile).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompiledQuery } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { createCredentials } from './accounts.js';
import { bookingScenarios } from './bookings.js';
import { summarize, type CpuProfile, type ProfileSummary } from './cpu-profile.js';
import { machineBusyMs, postgresCpuMs, processCpuMs } from './cpu-time.js';
import { benchSetup, recordCreatedEvents } from './database.js';
import { runLoad, type LoadResult } from './load.js';
import { benchOptions, onlyPicks } from './options.js';
import { parseSamples, summarizeSamples } from './perf-samples.js';
import { startArgs, startBareSqlServer, startService } from './processes.js';
import { runPgbench } from './pgbench.js';
import { readScenarios } from './scenarios.js';

// --no-cpu-prof: the same runs and CPU split without the profiler (and on the bundle, as
// `npm start` runs it), to see what profiling itself costs. --perf: Linux perf's on-CPU
// samples (perf-samples.ts) instead of V8's profiler, the kernel's share included.
const OWN_FLAGS = ['--no-cpu-prof', '--perf'];
const withPerf = process.argv.includes('--perf');
const profiling = !process.argv.includes('--no-cpu-prof') && !withPerf;
const options = benchOptions(
  process.argv.slice(2).filter((arg) => !OWN_FLAGS.includes(arg)),
  process.env,
);
const PERF_HZ = 999;
const log = (line: string) => process.stderr.write(`[profile] ${line}\n`);
const wanted = (name: string) => onlyPicks(options.only, name);

interface Profiled {
  name: string;
  connections: number;
  rps: number;
  /** CPU ms per request. */
  perRequest: { service: number; postgres: number; rest: number };
  summary: ProfileSummary;
  baseline?: {
    bareSqlRps: number;
    bareSqlPerRequest: { service: number; postgres: number; rest: number };
    pgbenchTps: number;
  };
}

const { record, env } = await benchSetup(options, log);
const outDir = path.resolve(
  options.outDir,
  `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`,
);
fs.mkdirSync(outDir, { recursive: true });
const connections = options.connections[0]!;

const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 2 });
const setup = await startService(env);
let jobs: {
  name: string;
  method: 'GET' | 'POST';
  paths: string[];
  bodies?: string[];
  apiKey: string;
  /** Reads: the SQL the request runs (the baselines run it too). */
  sql?: CompiledQuery[];
}[];
try {
  const credentials = await createCredentials(setup.baseUrl, env, record.biggestSeller);
  const reads = await readScenarios(database.db, setup.baseUrl, credentials, 500);
  const bookings = await bookingScenarios(database.db, setup.baseUrl, credentials, 1, (ids) =>
    recordCreatedEvents(options.databaseUrl, ids),
  );
  jobs = [
    ...reads.map((r) => ({
      name: r.name,
      method: 'GET' as const,
      paths: r.paths,
      apiKey: r.apiKey,
      sql: r.sql,
    })),
    ...bookings.map((b) => ({
      name: b.name,
      method: 'POST' as const,
      paths: ['/api/orders'],
      bodies: b.runs[0]!.bodies,
      apiKey: b.apiKey,
    })),
  ].filter((job) => wanted(job.name));
} finally {
  await setup.stop();
  await database.close();
}

type Split = Profiled['perRequest'];

/**
 * `perf record` of the process `pid` until `stop`, which reads the samples (the service's
 * JIT code named by the map `--perf-basic-prof` writes, which perf reads at script time).
 */
function perfRecord(pid: number, file: string): { stop: () => Promise<ProfileSummary> } {
  const args = ['record', '-g', '-F', String(PERF_HZ), '-p', String(pid), '-o', file];
  const perf = spawn('perf', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  // A missing perf is an 'error' event, which would otherwise end this process unexplained.
  const exited = new Promise<Error | undefined>((resolve) => {
    perf.once('exit', () => resolve(undefined));
    perf.once('error', (error) => resolve(error));
  });
  return {
    async stop() {
      perf.kill('SIGINT');
      const failed = await exited;
      if (failed) throw new Error(`perf did not run (Debian's linux-perf): ${failed.message}`);
      const script = spawnSync('perf', ['script', '-i', file, '-F', 'ip,sym'], {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
      return summarizeSamples(parseSamples(script.stdout), PERF_HZ, 15);
    },
  };
}

/** Runs a load against the process `pid` and splits the machine's CPU per request. */
async function cpuSplit(
  pid: number,
  load: () => Promise<LoadResult>,
): Promise<{ rps: number; perRequest: Split; fromUs: number; toUs: number }> {
  const before = { own: processCpuMs(pid), pg: postgresCpuMs(), all: machineBusyMs() };
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const result = await load();
  const toUs = Number(process.hrtime.bigint() / 1000n);
  const spent = {
    own: processCpuMs(pid) - before.own,
    pg: postgresCpuMs() - before.pg,
    all: machineBusyMs() - before.all,
  };
  const n = result.requests;
  const per = (ms: number) => Math.round((ms / n) * 1000) / 1000;
  return {
    rps: Math.round(n / result.durationSec),
    perRequest: {
      service: per(spent.own),
      postgres: per(spent.pg),
      rest: per(spent.all - spent.own - spent.pg),
    },
    fromUs,
    toUs,
  };
}

/**
 * Beside a read: node:http + pg running the same SQL (the least a Node API can do), and
 * pgbench on it, at the same connection count.
 */
async function baselines(sqlOf: CompiledQuery[]): Promise<NonNullable<Profiled['baseline']>> {
  const bare = await startBareSqlServer(options.databaseUrl, sqlOf);
  try {
    const load = (durationSec: number) =>
      runLoad({
        url: bare.baseUrl,
        connections,
        durationSec,
        method: 'GET',
        headers: {},
        paths: ['/'],
      });
    await load(options.warmupSec);
    const split = await cpuSplit(bare.pid, () => load(options.durationSec));
    const pgbench = await runPgbench(options.databaseUrl, sqlOf, connections, options.durationSec);
    return {
      bareSqlRps: split.rps,
      bareSqlPerRequest: split.perRequest,
      pgbenchTps: Math.round(pgbench.tps),
    };
  } finally {
    await bare.stop();
  }
}

const flags = startArgs().slice(0, -1);
const results: Profiled[] = [];
let measured = { fromUs: 0, toUs: 0 };
for (const [i, job] of jobs.entries()) {
  const file = `${String(i + 1).padStart(2, '0')}-${job.name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`;
  const service = await startService(
    env,
    withPerf
      ? [...flags, '--perf-basic-prof', 'dist/server.js']
      : profiling
        ? [
            ...flags,
            '--cpu-prof',
            '--cpu-prof-dir',
            outDir,
            '--cpu-prof-name',
            file,
            'dist/server.js',
          ]
        : startArgs(),
  );
  const load = (durationSec: number) =>
    runLoad({
      url: service.baseUrl,
      connections,
      durationSec,
      method: job.method,
      headers: {
        'x-api-key': job.apiKey,
        ...(job.bodies ? { 'content-type': 'application/json' } : {}),
      },
      paths: job.paths,
      ...(job.bodies ? { bodies: job.bodies } : {}),
    });
  try {
    await load(options.warmupSec);
    const recording = withPerf
      ? perfRecord(service.pid, path.join(outDir, file.replace(/\.cpuprofile$/, '.perf.data')))
      : undefined;
    const split = await cpuSplit(service.pid, () => load(options.durationSec));
    measured = { fromUs: split.fromUs, toUs: split.toUs };
    results.push({
      name: job.name,
      connections,
      rps: split.rps,
      perRequest: split.perRequest,
      summary: { totalMs: 0, busyMs: 0, groups: [], functions: [] },
    });
    if (recording) results.at(-1)!.summary = await recording.stop();
  } finally {
    await service.stop();
    if (withPerf) fs.rmSync(`/tmp/perf-${service.pid}.map`, { force: true });
  }
  if (job.sql) results.at(-1)!.baseline = await baselines(job.sql);
  if (profiling) {
    const profile = JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8')) as CpuProfile;
    results.at(-1)!.summary = summarize(profile, 15, measured);
  }
  log(`${job.name}: ${results.at(-1)!.rps} req/s, ${JSON.stringify(results.at(-1)!.perRequest)}`);
}

const lines: string[] = [
  `Profile ${new Date().toISOString()}: ${record.orders.toLocaleString('en')} orders, ${connections} connections, ` +
    `${options.durationSec} s per scenario; ${os.availableParallelism()} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}.`,
  '',
  '| scenario | server | req/s | of pgbench | server CPU ms/req | PostgreSQL CPU ms/req | rest (load generator) ms/req |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ...results.flatMap((r) => {
    const ofPgbench = (rps: number) =>
      r.baseline ? `${Math.round((rps / r.baseline.pgbenchTps) * 100)} %` : '';
    const row = (server: string, rps: number, split: Split) =>
      `| ${r.name} | ${server} | ${rps.toLocaleString('en')} | ${ofPgbench(rps)} | ${split.service} | ${split.postgres} | ${split.rest} |`;
    return [
      row('the service', r.rps, r.perRequest),
      ...(r.baseline
        ? [
            row('node:http + pg, same SQL', r.baseline.bareSqlRps, r.baseline.bareSqlPerRequest),
            `| ${r.name} | pgbench, same SQL | ${r.baseline.pgbenchTps.toLocaleString('en')} | 100 % | | | |`,
          ]
        : []),
    ];
  }),
];
for (const r of profiling || withPerf ? results : []) {
  lines.push(
    '',
    `### ${r.name}`,
    '',
    withPerf
      ? `Service, all threads, on a CPU during the load (perf, ${PERF_HZ} Hz): ${r.summary.busyMs} ms.`
      : `Service main thread during the load: ${r.summary.busyMs} ms busy of ${r.summary.totalMs} ms.`,
    '',
    '| where (self time) | ms | % of busy |',
    '| --- | ---: | ---: |',
    ...r.summary.groups.map((g) => `| ${g.name} | ${g.ms} | ${g.percent} |`),
    '',
    '| hottest functions (self time) | ms | % of busy |',
    '| --- | ---: | ---: |',
    ...r.summary.functions.map(
      (f) => `| \`${f.name.replace(/\|/g, '\\|')}\` | ${f.ms} | ${f.percent} |`,
    ),
  );
}
const text = `${lines.join('\n')}\n`;
fs.writeFileSync(path.join(outDir, 'profile.md'), text);
process.stdout.write(text);
log(`profiles in ${outDir}`);
