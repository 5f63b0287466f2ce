/**
 * The report: per scenario and concurrency the measured numbers, the limit they are
 * compared with and the ratio, then the budget lines of DESIGN.md section 10 checked
 * against them. Written as JSON (the record) and as a Markdown table (for docs and humans).
 */
import type { Startup } from './startup-time.js';

export interface ScenarioResult {
  name: string;
  kind: 'list' | 'object' | 'booking';
  connections: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Transport errors, timeouts and unexpected statuses (a refused booking is expected). */
  errors: number;
  statuses: Record<string, number>;
  /** Highest server RSS seen during the run. */
  rssMb: number;
  /**
   * What the API is compared with: pgbench on its SQL (lists), bare node:http (one object),
   * pgbench's TPC-B-like transaction (bookings).
   */
  limit?: 'pgbench' | 'node:http' | 'pgbench TPC-B';
  limitRps?: number;
  ratio?: number;
  /** pgbench with prepared statements (plans cached): how much of the limit is planning. */
  limitPreparedRps?: number;
  /** One object: pgbench on the request's own SQL (what the API adds to the database). */
  databaseRps?: number;
  /** Statements the request sends to PostgreSQL, BEGIN and COMMIT included. */
  statements?: number;
  /** Bookings: confirmed (201) and refused for lack of seats (409). */
  confirmed?: number;
  refused?: number;
  /** Bookings: events over capacity, events whose seats disagree with their items. */
  oversold?: number;
  /** The one-event scenario: seats reserved on it afterwards (must equal `confirmed`). */
  reserved?: number;
}

export interface BudgetLine {
  line: string;
  met: boolean;
  detail: string;
}

export interface Report {
  generatedAt: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    postgres: string;
    /** 1-minute load averages before and after the run: others' work shares these cores. */
    loadBefore: number;
    loadAfter: number;
  };
  settings: {
    quick: boolean;
    durationSec: number;
    connections: number[];
    poolSize: number | null;
  };
  data: { orders: number; sellers: number; seed: number; from: string; seller: string };
  startup: Startup;
  scenarios: ScenarioResult[];
  /** bench/webhooks.ts's answer, as it printed it. */
  webhooks?: unknown;
  /** `--peer directus`: the shared questions asked of both, at 8 connections. */
  peer?: PeerResult;
  /** Ours against the floor server, interleaved in this run (bench/floor.ts). */
  floor?: { connections: number; rounds: number; questions: FloorResult[] };
  budget: BudgetLine[];
}

/** One server's numbers on a floor question: medians of the interleaved runs. */
export interface FloorSide {
  rps: number;
  /** The server process's own CPU time (utime + stime) per answered request. */
  cpuMsPerRequest: number;
  /** Every PostgreSQL process's CPU time over the run per answered request. */
  postgresMsPerRequest: number;
  p99Ms: number;
  /** Over all runs: anything but 200, transport errors, timeouts. */
  errors: number;
  /** Each run's req/s, in order. */
  runsRps: number[];
}

export interface FloorResult {
  name: string;
  note?: string;
  ours: FloorSide;
  /** The floor with plain statements, and with named prepared ones. */
  plain: FloorSide;
  prepared: FloorSide;
}

/** The better of the floor's two modes for a question, by req/s. */
export const bestFloor = (q: FloorResult): FloorSide & { mode: 'plain' | 'prepared' } =>
  q.plain.rps >= q.prepared.rps
    ? { ...q.plain, mode: 'plain' }
    : { ...q.prepared, mode: 'prepared' };

/** DESIGN.md section 10: each read at least this share of the best floor's req/s... */
const FLOOR_MIN_RATIO = 0.8;
/** ...with at most this many times the floor's server CPU per request. */
const FLOOR_MAX_CPU_FACTOR = 1.5;

export function floorBudgetLines(
  questions: readonly FloorResult[],
  connections: number,
): BudgetLine[] {
  const rows = questions.map((q) => {
    const best = bestFloor(q);
    return {
      name: q.name,
      ratio: q.ours.rps / best.rps,
      cpu: q.ours.cpuMsPerRequest / best.cpuMsPerRequest,
    };
  });
  const worst = (key: 'ratio' | 'cpu', sign: number) =>
    rows.reduce<(typeof rows)[number] | undefined>(
      (w, r) => (!w || sign * r[key] < sign * w[key] ? r : w),
      undefined,
    );
  const lowest = worst('ratio', 1);
  const costliest = worst('cpu', -1);
  return [
    {
      line: `every read >= ${FLOOR_MIN_RATIO} of the best floor at ${connections} connections`,
      met: rows.length > 0 && rows.every((r) => r.ratio >= FLOOR_MIN_RATIO),
      detail: lowest ? `lowest: ${lowest.name} at ${lowest.ratio.toFixed(2)}` : 'not run',
    },
    {
      line: `server CPU per read <= ${FLOOR_MAX_CPU_FACTOR}x the floor's`,
      met: rows.length > 0 && rows.every((r) => r.cpu <= FLOOR_MAX_CPU_FACTOR),
      detail: costliest ? `highest: ${costliest.name} at ${costliest.cpu.toFixed(1)}x` : 'not run',
    },
  ];
}

export interface PeerResult {
  name: string;
  queries: {
    name: string;
    oursRps: number;
    peerRps: number;
    peerP99Ms: number;
    peerRssMb: number;
  }[];
}

/** DESIGN.md section 10: at least this many times the peer's throughput on each shared question. */
export const PEER_MIN_FACTOR = 5;

export function peerBudgetLine(peer: PeerResult): BudgetLine {
  const factors = peer.queries.map((q) => ({ name: q.name, factor: q.oursRps / q.peerRps }));
  return {
    line: `>= ${PEER_MIN_FACTOR}x ${peer.name} on the shared questions at 8 connections`,
    met: factors.length > 0 && factors.every((f) => f.factor >= PEER_MIN_FACTOR),
    detail: factors.map((f) => `${f.name} ${f.factor.toFixed(1)}x`).join('; '),
  };
}

const MAX_RSS_MB = 150;
const MAX_STARTUP_MS = 1000;

/**
 * The lines of DESIGN.md section 10 this run's scenarios decide: no oversell, RSS on
 * PostgreSQL, start-up. The reads' lines come from the floor comparison (bench/floor.ts),
 * the peer's from peerBudgetLine; bookings' CPU per booking from bench/booking-cpu.ts. (Issue
 * 15's ratios to pgbench and to bare node:http are no budget any more: the table above
 * still shows them, as the record.)
 */
export function checkBudget(scenarios: ScenarioResult[], startup: Startup): BudgetLine[] {
  const bookings = scenarios.filter((s) => s.kind === 'booking');
  const oversold = bookings.reduce((n, s) => n + (s.oversold ?? 0), 0);
  const hot = bookings.filter((s) => s.reserved !== undefined);
  const hotExact = hot.every((s) => s.reserved === s.confirmed);
  const rss = Math.max(0, ...scenarios.map((s) => s.rssMb));
  return [
    {
      line: 'bookings: no oversell',
      met: bookings.length > 0 && oversold === 0 && hotExact,
      detail: `${bookings.reduce((n, s) => n + (s.confirmed ?? 0), 0)} confirmed; ${oversold} events oversold or inconsistent; one event: ${hot.map((s) => `${s.confirmed} confirmed = ${s.reserved} reserved`).join(', ') || 'not run'}`,
    },
    {
      line: `server RSS under load <= ${MAX_RSS_MB} MB on PostgreSQL`,
      met: rss > 0 && rss <= MAX_RSS_MB,
      detail: `highest ${rss.toFixed(0)} MB`,
    },
    {
      line: `start-up to listening < ${MAX_STARTUP_MS} ms on PostgreSQL`,
      met: startup.medianMs < MAX_STARTUP_MS,
      detail: `median ${startup.medianMs.toFixed(0)} ms (runs: ${startup.runs.map((r) => r.ms.toFixed(0)).join(', ')})`,
    },
  ];
}

const num = (n: number | undefined, digits = 0) =>
  n === undefined || Number.isNaN(n)
    ? ''
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Ours against the floor: req/s of the three (medians of the interleaved runs), the ratio to
 * the better floor, server CPU per request of ours and of that floor; pgbench on our SQL and
 * the peer, when this run measured them, for the record.
 */
function floorTable(report: Report): string[] {
  const { floor, peer, scenarios } = report;
  if (!floor) return [];
  const lines = [
    `Against the floor (bench/floor-server.ts, PostgreSQL only): ${floor.connections} connections, ` +
      `ours, floor and floor prepared interleaved, medians of ${floor.rounds} runs each; ` +
      "CPU is the server process's own per request; PostgreSQL's is all its processes' per request.",
    '',
    `| question | ours req/s | floor req/s | floor prepared req/s | ours / best floor | CPU ms/req ours | CPU ms/req floor | CPU ours / floor | PostgreSQL CPU ms/req ours | floor | pgbench | ${peer?.name ?? 'Directus'} req/s |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const q of floor.questions) {
    const best = bestFloor(q);
    const ours = scenarios.find((s) => s.name === q.name && s.connections === floor.connections);
    // Lists: pgbench on our list SQL; one object: pgbench on its own statement.
    const pgbench = ours?.limit === 'pgbench' ? ours.limitRps : ours?.databaseRps;
    const peerRps = peer?.queries.find((p) => p.name === q.name)?.peerRps;
    const errors = q.ours.errors + q.plain.errors + q.prepared.errors;
    lines.push(
      `| ${q.name}${q.note ? ` (${q.note})` : ''}${errors ? ` **${errors} errors**` : ''} | ${num(q.ours.rps)} | ${num(q.plain.rps)} | ${num(q.prepared.rps)} | ${(q.ours.rps / best.rps).toFixed(2)} | ${num(q.ours.cpuMsPerRequest, 2)} | ${num(best.cpuMsPerRequest, 2)} | ${(q.ours.cpuMsPerRequest / best.cpuMsPerRequest).toFixed(1)}x | ${num(q.ours.postgresMsPerRequest, 2)} | ${num(best.postgresMsPerRequest, 2)} | ${num(pgbench)} | ${num(peerRps)} |`,
    );
  }
  return lines;
}

export function markdown(report: Report): string {
  const { machine, settings, data, startup } = report;
  const lines = [
    `Run ${report.generatedAt}: ${data.orders.toLocaleString('en-US')} orders, ${data.sellers} sellers (seed ${data.seed}); ` +
      `${settings.durationSec} s per run${settings.quick ? ' (quick)' : ''}; ` +
      `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.postgres}; ` +
      `load average ${machine.loadBefore.toFixed(1)} before, ${machine.loadAfter.toFixed(1)} after.`,
    '',
    '| scenario | conn | statements | req/s | p50 ms | p99 ms | errors | limit | limit req/s | ratio | pgbench prepared | RSS MB | notes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const s of report.scenarios) {
    const notes =
      s.kind === 'booking'
        ? `${num(s.confirmed)} confirmed, ${num(s.refused)} refused` +
          (s.reserved !== undefined ? `, ${num(s.reserved)} reserved` : '') +
          `, ${s.oversold ?? 0} oversold`
        : s.databaseRps !== undefined
          ? `its SQL in pgbench: ${num(s.databaseRps)}/s (API ${((s.rps / s.databaseRps) * 100).toFixed(0)}%)`
          : '';
    lines.push(
      `| ${s.name} | ${s.connections} | ${s.statements ?? ''} | ${num(s.rps)} | ${num(s.p50Ms, 1)} | ${num(s.p99Ms, 1)} | ${s.errors} | ${s.limit ?? ''} | ${num(s.limitRps)} | ${s.ratio === undefined ? '' : `${(s.ratio * 100).toFixed(0)}%`} | ${num(s.limitPreparedRps)} | ${num(s.rssMb)} | ${notes} |`,
    );
  }
  if (report.peer) {
    lines.push(
      '',
      `| question, 8 connections | ours req/s | ${report.peer.name} req/s | ${report.peer.name} p99 ms | ${report.peer.name} RSS MB | ours / peer |`,
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...report.peer.queries.map(
        (q) =>
          `| ${q.name} | ${num(q.oursRps)} | ${num(q.peerRps)} | ${num(q.peerP99Ms, 1)} | ${num(q.peerRssMb)} | ${(q.oursRps / q.peerRps).toFixed(1)}x |`,
      ),
    );
  }
  if (report.floor) lines.push('', ...floorTable(report));
  if (report.webhooks) {
    lines.push('', `Webhooks (bench/webhooks.ts): \`${JSON.stringify(report.webhooks)}\``);
  }
  lines.push(
    '',
    `Start-up on PostgreSQL: median ${startup.medianMs.toFixed(0)} ms to listening, RSS ${startup.rssMb.toFixed(0)} MB.`,
    '',
    '| budget (DESIGN.md section 10) | met | measured |',
    '| --- | --- | --- |',
    ...report.budget.map((b) => `| ${b.line} | ${b.met ? 'yes' : '**no**'} | ${b.detail} |`),
  );
  return lines.join('\n') + '\n';
}
