/**
 * `npx tsx bench/instructions.ts [bench flags] [--before DIR] [--requests N] [--rounds N]`:
 * what one request costs the service in machine instructions, counted by valgrind's
 * callgrind, which counts the same for the same work whatever else the machine runs. On
 * this shared VM the CPU time of a request moves by ±30 % between runs (docs/performance.md),
 * more than most changes to the request pipeline save; an instruction count moves by well
 * under 1 %, so it can tell a 2 % change apart.
 *
 * For each read scenario of the bench (`--only` picks some; bookings are not repeatable
 * here, each one changes the data): the built bundle is started as `npm start` starts it,
 * under callgrind, and warmed up with `--requests` requests (the JIT and the caches
 * settle); then the counters are zeroed (callgrind_control), `--requests` more are sent
 * one after another on one kept-alive connection, and the counters are dumped. Instructions
 * per request are the dump's total over the requests, split by thread: the event loop's
 * (the request's own work), the others (the garbage collector's concurrent work), and the
 * optimizing compiler's, which is left out (see `split`). Node's user-space work only: the
 * kernel's (socket writes) is not counted. `--before DIR` (another checkout with its `dist/`
 * built) is counted the same way, started as its own package.json says, alternating,
 * `--rounds` times each, and with `--floor` the floor server (floor-server.ts, prepared
 * statements) on the same paths. `--keep DIR` keeps each dump there, for
 * `callgrind_annotate --inclusive=yes DIR/<file>`.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { createCredentials } from './accounts.js';
import { benchSetup } from './database.js';
import { benchOptions, onlyPicks } from './options.js';
import { freePort, startArgs, startService, waitUntilReady } from './processes.js';
import { readScenarios } from './scenarios.js';

/** This script's own flags, left out of the bench's: those that take a value, and --floor. */
const OWN_WITH_VALUE = ['before', 'requests', 'rounds', 'keep'];
const { values: own } = parseArgs({
  args: process.argv.slice(2),
  options: {
    before: { type: 'string' },
    requests: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '1' },
    keep: { type: 'string' },
    floor: { type: 'boolean', default: false },
  },
  strict: false,
});
const options = benchOptions(
  process.argv
    .slice(2)
    .filter(
      (arg, i, all) =>
        arg !== '--floor' &&
        !OWN_WITH_VALUE.some((name) => arg === `--${name}` || all[i - 1] === `--${name}`),
    ),
  process.env,
);
const requests = Number(own.requests);
const rounds = Number(own.rounds);
const log = (line: string) => process.stderr.write(`[instructions] ${line}\n`);
const wanted = (name: string) => onlyPicks(options.only, name);

if (spawnSync('valgrind', ['--version']).status !== 0)
  throw new Error('valgrind is needed (Debian package valgrind)');
const { record, env: serviceEnv } = await benchSetup(options, log);
// Under callgrind a request takes about 100 times as long, so work done per second
// (the webhook, mail and hold pollers) would be counted into each request, and vary with
// how busy the machine is: the counted service runs none of them.
const env = {
  ...serviceEnv,
  WEBHOOK_DISPATCH: 'false',
  ORDER_HOLD_SWEEP: 'false',
  OUTBOX_POLL_MS: String(3_600_000),
};

// The scenarios' paths and keys, read once through a plainly started service.
const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 2 });
const setup = await startService(env);
let jobs: { name: string; paths: string[]; apiKey: string }[];
try {
  const credentials = await createCredentials(setup.baseUrl, env, record.biggestSeller);
  const reads = await readScenarios(database.db, setup.baseUrl, credentials, 500);
  jobs = reads.filter((read) => wanted(read.name));
} finally {
  await setup.stop();
  await database.close();
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, its body read to the end; anything but 200 stops the count. */
function get(baseUrl: string, urlPath: string, apiKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${urlPath}`, { agent, headers: { 'x-api-key': apiKey } });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`${urlPath}: ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}

/**
 * callgrind_control on the service. Its environment's HOST must be the service's: valgrind
 * names the pipes it listens on after $HOST, which for the service is its listen address.
 */
function control(pid: number, flag: '-z' | '-d'): void {
  const result = spawnSync('callgrind_control', [flag, String(pid)], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, HOST: '127.0.0.1' },
  });
  if (result.status !== 0 || !/OK\./.test(result.stdout) || /error/i.test(result.stderr))
    throw new Error(`callgrind_control ${flag}: ${result.stdout} ${result.stderr}`);
}

/** The dump's text once callgrind has written it all (its totals line comes last). */
async function dumped(file: string): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (/^totals:/m.test(text) && /^summary:/m.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(
    `callgrind wrote no dump at ${file} (${fs.readdirSync(path.dirname(file)).join(', ')})`,
  );
}

/** What is counted: node's arguments after the port is known, where, and its ready path. */
interface Target {
  name: string;
  cwd: string;
  args(port: number): string[];
  ready: string;
}

/** Instructions per request, by thread. */
interface Counted {
  /** The event loop's thread: the request's own work. */
  main: number;
  /** V8's optimizing compiler (TurboFan) on its worker thread. */
  compiler: number;
  /** The other threads: mostly the garbage collector's concurrent marking and sweeping. */
  background: number;
}

/**
 * Splits a dump's total by thread, from callgrind_annotate's inclusive costs. The
 * optimizing compiler is set apart: under callgrind a request takes ~100 times as long
 * while the compiler's queue is worked off at its own pace, so after any warm-up it is
 * still compiling (it was 63-68 % of the total of both servers at 1,000 requests), and how
 * much of that lands in the counted requests varies from run to run; at full speed it
 * compiles a few functions per 15,000 requests once warm (seen with --trace-opt).
 */
function split(file: string, total: number, requests: number): Counted {
  const annotated = spawnSync(
    'callgrind_annotate',
    ['--inclusive=yes', '--threshold=100', '--auto=no', file],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (annotated.status !== 0) throw new Error(`callgrind_annotate: ${annotated.stderr}`);
  const inclusive = (pattern: RegExp) => {
    const line = annotated.stdout.split('\n').find((l) => pattern.test(l));
    return line ? Number(/^\s*([\d,]+)/.exec(line)![1]!.replaceAll(',', '')) : 0;
  };
  const main = inclusive(/\?\?\?:main \[/);
  const compiler = inclusive(/OptimizingCompileDispatcher::CompileTask::RunInternal\(\)/);
  if (!main) throw new Error(`no main thread in ${file}`);
  return {
    main: main / requests,
    compiler: compiler / requests,
    background: (total - main - compiler) / requests,
  };
}

/** Instructions per request of `job` on `target`. */
async function count(target: Target, job: (typeof jobs)[number]): Promise<Counted> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-instructions-'));
  const port = await freePort();
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--quiet',
      // V8 writes machine code and runs it: valgrind must notice code that changed.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${path.join(out, 'callgrind.out.%p')}`,
      process.execPath,
      ...target.args(port),
    ],
    {
      cwd: target.cwd,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    // A start under callgrind takes a minute or more.
    await waitUntilReady(`${baseUrl}${target.ready}`, child, target.name, 300_000);
    const send = async () => {
      for (let i = 0; i < requests; i++)
        await get(baseUrl, job.paths[i % job.paths.length]!, job.apiKey);
    };
    await send();
    control(child.pid!, '-z');
    await send();
    control(child.pid!, '-d');
    let file = path.join(out, `callgrind.out.${child.pid}.1`);
    const text = await dumped(file);
    if (own.keep) {
      fs.mkdirSync(String(own.keep), { recursive: true });
      const name = `${job.name}.${target.name}.callgrind`.replace(/[^\w.,-]+/g, '-');
      fs.copyFileSync(file, path.join(String(own.keep), name));
      file = path.join(String(own.keep), name);
    }
    return split(file, Number(/^summary:\s+(\d+)/m.exec(text)![1]), requests);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(out, { recursive: true, force: true });
  }
}

const ours = (name: string, cwd: string): Target => ({
  name,
  cwd,
  args: () => startArgs(cwd),
  ready: '/readyz',
});
const targets: Target[] = [
  ...(own.before ? [ours('before', path.resolve(String(own.before)))] : []),
  ours('current', process.cwd()),
  // --floor: the hand-written route (floor-server.ts), prepared statements, the same paths.
  ...(own.floor
    ? [
        {
          name: 'floor, prepared',
          cwd: process.cwd(),
          args: (port: number) => [
            '--import',
            'tsx',
            path.join(import.meta.dirname, 'floor-server.ts'),
            String(port),
            options.databaseUrl,
            'prepared',
            String(options.poolSize ?? 10),
          ],
          ready: '/',
        },
      ]
    : []),
];
const lines = [
  `Instructions per request (callgrind), ${requests} requests after ${requests} of warm-up, one connection; ${os.cpus()[0]?.model ?? ''}, Node ${process.version}.`,
  '',
  '| scenario | build | round | main thread | other threads | per request (both) | optimizing compiler, left out |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
];
for (const job of jobs) {
  for (let round = 1; round <= rounds; round++) {
    for (const b of targets) {
      const counted = await count(b, job);
      const n = (value: number) => Math.round(value).toLocaleString('en-US');
      const cells = [counted.main, counted.background, counted.main + counted.background];
      log(`${job.name}, ${b.name}, round ${round}: ${cells.map(n).join(' / ')}`);
      lines.push(
        `| ${job.name} | ${b.name} | ${round} | ${cells.map(n).join(' | ')} | ${n(counted.compiler)} |`,
      );
    }
  }
}
agent.destroy();
console.log(lines.join('\n'));
