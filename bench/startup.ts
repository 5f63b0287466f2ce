/**
 * Start-up benchmark: spawns the built server (`dist/server.js`) several times and reports
 * the time from spawn to the "Server listening" log line and the process RSS right after.
 *
 *   npm run build && npx tsx bench/startup.ts [--runs 5] [--database-url postgres://…]
 *
 * Without --database-url it uses the embedded database in a temporary DATA_DIR (the first
 * run creates it; later runs open it, which is what a restart costs).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'database-url': { type: 'string' } },
});
const runs = Number(values.runs);
const databaseUrl = values['database-url'];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-startup-'));

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function once(): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      BOOKING_SECRET: 'benchmark-secret-0123456789-0123456789',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ms = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Server listening')) resolve(performance.now() - started);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const rss = rssMb(child.pid!);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return { ms, rss };
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
fs.rmSync(dataDir, { recursive: true, force: true });
const backend = databaseUrl ? 'postgres' : 'pglite';
for (const [i, r] of results.entries()) {
  console.log(
    `${backend} run ${i + 1}: listening after ${r.ms.toFixed(0)} ms, RSS ${r.rss.toFixed(1)} MB`,
  );
}
const later = results.slice(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(
  `${backend}: median of runs 2..${runs}: ${median(later.map((r) => r.ms)).toFixed(0)} ms, ` +
    `RSS ${median(later.map((r) => r.rss)).toFixed(1)} MB`,
);
