/**
 * Ours against the floor (issue 27, DESIGN.md section 10): each read question asked of our
 * service and of the floor server (bench/floor-server.ts) run twice, with plain and with
 * named prepared statements. First every body the floor sends is checked to be the same
 * JSON value as ours for the same request (a floor that answered less would flatter
 * nothing but itself); then the three are measured interleaved in the same session (ours,
 * floor, floor prepared, repeated `rounds` times) at 8 connections, keeping the median
 * req/s of each, and the server's own CPU time per request (its /proc utime + stime over
 * the run, divided by its answers: robust on a shared machine, where req/s is not), and
 * PostgreSQL's processes' CPU time per request the same way (the same SQL can cost the
 * database more through one server than through another: a plan or a statement apart).
 * PostgreSQL only: the floor speaks to a PostgreSQL server through pg.
 */
import { describeDifference, firstDifference } from './json-diff.js';
import { runLoad } from './load.js';
import { postgresCpuMs, processCpuMs } from './cpu-time.js';
import { bestFloor, type FloorResult, type FloorSide, type Report } from './report.js';
import { startFloorServer, type Running } from './processes.js';

export interface FloorQuestion {
  name: string;
  /** Paths asked in turn by every connection (paging: the pages followed). */
  paths: string[];
  /** Our caller's key (the floor is asked without one). */
  apiKey: string;
  /** What the question is about, for the report (e.g. the seller's size). */
  note?: string;
}

export interface FloorTargets {
  ours: Running;
  plain: Running;
  prepared: Running;
}

export const FLOOR_CONNECTIONS = 8;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** At most `n` paths spread over the list, the first and last included. */
function sample(paths: string[], n: number): string[] {
  if (paths.length <= n) return paths;
  const step = (paths.length - 1) / (n - 1);
  return Array.from({ length: n }, (_, i) => paths[Math.round(i * step)]!);
}

async function body(baseUrl: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${baseUrl}${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/** Throws, naming the first differing path, unless both floors answer what we answer. */
export async function checkBodies(question: FloorQuestion, targets: FloorTargets): Promise<void> {
  for (const path of sample(question.paths, 12)) {
    const ours = await body(targets.ours.baseUrl, path, { 'x-api-key': question.apiKey });
    for (const mode of ['plain', 'prepared'] as const) {
      const floor = await body(targets[mode].baseUrl, path, {});
      const difference = firstDifference(ours, floor);
      if (difference)
        throw new Error(
          `floor (${mode}) answers ${question.name} differently from ours at ${path}: ${describeDifference(difference)}`,
        );
    }
  }
}

async function run(
  target: Running,
  question: FloorQuestion,
  headers: Record<string, string>,
  seconds: number,
) {
  const cpuBefore = processCpuMs(target.pid);
  const postgresBefore = postgresCpuMs();
  const load = await runLoad({
    url: target.baseUrl,
    connections: FLOOR_CONNECTIONS,
    durationSec: seconds,
    method: 'GET',
    headers,
    paths: question.paths,
  });
  const cpuMs = processCpuMs(target.pid) - cpuBefore;
  const postgresMs = postgresCpuMs() - postgresBefore;
  const ok = load.statuses['200'] ?? 0;
  return {
    rps: load.requests / load.durationSec,
    cpuMsPerRequest: ok > 0 ? cpuMs / ok : Number.NaN,
    postgresMsPerRequest: ok > 0 ? postgresMs / ok : Number.NaN,
    p99Ms: load.p99Ms,
    errors: load.socketErrors + load.timeouts + (load.requests - ok),
  };
}

const cpuText = (side: FloorSide) =>
  `${side.cpuMsPerRequest.toFixed(2)} ms CPU, PostgreSQL ${side.postgresMsPerRequest.toFixed(2)}`;

/** The question measured: a warm-up of each, then `rounds` interleaved runs of the three. */
export async function measureFloor(
  question: FloorQuestion,
  targets: FloorTargets,
  options: { rounds: number; durationSec: number; warmupSec: number },
  log: (line: string) => void,
): Promise<FloorResult> {
  const sides = [
    ['ours', targets.ours, { 'x-api-key': question.apiKey }],
    ['plain', targets.plain, {}],
    ['prepared', targets.prepared, {}],
  ] as const;
  for (const [, target, headers] of sides) await run(target, question, headers, options.warmupSec);
  const runs: Record<string, Awaited<ReturnType<typeof run>>[]> = {
    ours: [],
    plain: [],
    prepared: [],
  };
  for (let round = 0; round < options.rounds; round++)
    for (const [side, target, headers] of sides)
      runs[side]!.push(await run(target, question, headers, options.durationSec));
  const summary = (side: string): FloorSide => ({
    rps: median(runs[side]!.map((r) => r.rps)),
    cpuMsPerRequest: median(runs[side]!.map((r) => r.cpuMsPerRequest)),
    postgresMsPerRequest: median(runs[side]!.map((r) => r.postgresMsPerRequest)),
    p99Ms: median(runs[side]!.map((r) => r.p99Ms)),
    errors: runs[side]!.reduce((n, r) => n + r.errors, 0),
    runsRps: runs[side]!.map((r) => Math.round(r.rps)),
  });
  const result: FloorResult = {
    name: question.name,
    ...(question.note ? { note: question.note } : {}),
    ours: summary('ours'),
    plain: summary('plain'),
    prepared: summary('prepared'),
  };
  const best = bestFloor(result);
  log(
    `floor ${question.name}: ours ${result.ours.rps.toFixed(0)} req/s (${cpuText(result.ours)}), ` +
      `floor ${result.plain.rps.toFixed(0)}, prepared ${result.prepared.rps.toFixed(0)} req/s ` +
      `(best ${cpuText(best)}); ours / best ${(result.ours.rps / best.rps).toFixed(2)}`,
  );
  return result;
}

/**
 * The whole comparison: both floor servers started beside ours (on the same database, with
 * the pool size ours has), every question's bodies checked, then each question measured.
 */
export async function compareWithFloor(job: {
  databaseUrl: string;
  poolSize: number;
  ours: Running;
  questions: FloorQuestion[];
  rounds: number;
  durationSec: number;
  warmupSec: number;
  log: (line: string) => void;
}): Promise<NonNullable<Report['floor']>> {
  const { log } = job;
  log('starting the floor server, plain and prepared (PostgreSQL only)');
  const plain = await startFloorServer(job.databaseUrl, 'plain', job.poolSize);
  const prepared = await startFloorServer(job.databaseUrl, 'prepared', job.poolSize).catch(
    async (error: unknown) => {
      await plain.stop();
      throw error;
    },
  );
  const targets = { ours: job.ours, plain, prepared };
  try {
    for (const question of job.questions) await checkBodies(question, targets);
    log(`floor bodies equal ours on ${job.questions.length} questions`);
    const questions: FloorResult[] = [];
    for (const question of job.questions)
      questions.push(await measureFloor(question, targets, job, log));
    return { connections: FLOOR_CONNECTIONS, rounds: job.rounds, questions };
  } finally {
    await Promise.all([plain.stop(), prepared.stop()]);
  }
}
