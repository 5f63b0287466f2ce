/**
 * The limit for a list query (DESIGN.md section 10): PostgreSQL running the very SQL the
 * API generates, through pgbench, at the same concurrency. The script keeps the API's
 * placeholders as pgbench variables, sent as untyped text parameters, as node-postgres
 * sends them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { CompiledQuery } from 'kysely';

export interface PgbenchResult {
  tps: number;
  /** Mean latency in ms as pgbench reports it. */
  latencyMs: number;
  failed: number;
}

// node-postgres's conversion of a parameter to the text it sends (not in its typed API).
const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => string | Buffer | null;
};

/** A parameter as node-postgres would send it, for `-D name=value`. */
function parameterText(value: unknown): string {
  const prepared = pgUtils.prepareValue(value);
  if (prepared === null) throw new Error('pgbench variables cannot be NULL');
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}

/** Writes one script per query; returns pgbench's -f and -D arguments. */
export function scriptArguments(queries: CompiledQuery[], dir: string): string[] {
  const args: string[] = [];
  queries.forEach((query, q) => {
    const script = query.sql.replace(/\$(\d+)/g, (_, n: string) => `:q${q}p${n}`);
    const file = path.join(dir, `query${q}.sql`);
    fs.writeFileSync(file, `${script.replace(/\s+/g, ' ')};\n`);
    args.push('-f', `${file}@1`);
    query.parameters.forEach((value, i) =>
      args.push('-D', `q${q}p${i + 1}=${parameterText(value)}`),
    );
  });
  return args;
}

/**
 * Runs the queries (in equal shares) at `clients` connections for `seconds`, or pgbench's
 * built-in TPC-B-like transaction (five statements between BEGIN and END on the tables of
 * `pgbench -i`, see `initTpcb`). `extended` parses and plans every execution (what
 * node-postgres does by default, and within noise what pgbench's default simple mode
 * costs); `prepared` parses once per connection and lets PostgreSQL cache the plan.
 */
export async function runPgbench(
  url: string,
  queries: CompiledQuery[] | 'tpcb-like',
  clients: number,
  seconds: number,
  mode: 'extended' | 'prepared' = 'extended',
): Promise<PgbenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-pgbench-'));
  try {
    const args = [
      '-n',
      '-M',
      mode,
      '-c',
      String(clients),
      '-j',
      String(Math.min(clients, os.availableParallelism())),
      '-T',
      String(seconds),
      ...(queries === 'tpcb-like' ? ['-b', 'tpcb-like'] : scriptArguments(queries, dir)),
      url,
    ];
    const output = await pgbench(args);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    if (!tps) throw new Error(`no tps in pgbench output:\n${output}`);
    return {
      tps: Number(tps[1]),
      latencyMs: Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? NaN),
      failed: Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pgbench(args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`)),
    );
  });
}

/** TPC-B's tables (`pgbench -i`) at this scale in the database at `url`, made afresh. */
export async function initTpcb(url: string, scale: number): Promise<void> {
  await pgbench(['-i', '-q', '-s', String(scale), url]);
}
