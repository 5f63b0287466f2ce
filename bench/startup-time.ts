/**
 * Start-up time of the built server: from spawn to its "Server listening" log line, and
 * its RSS right then. Used by startup.ts (on its own) and by the bench's report.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { rssMb, startArgs } from './processes.js';

export interface StartupRun {
  ms: number;
  rssMb: number;
}

export interface Startup {
  runs: StartupRun[];
  /** Median of the runs after the first (the first also warms the OS's file cache). */
  medianMs: number;
  rssMb: number;
}

const ROOT = path.join(import.meta.dirname, '..');

export async function startOnce(env: Record<string, string>): Promise<StartupRun> {
  const started = performance.now();
  const child = spawn(process.execPath, startArgs(), {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ms = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "Server listening" line within 30 s: ${out}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Server listening')) return;
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const rss = rssMb(child.pid!);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { ms, rssMb: rss };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function measureStartup(runs: number, env: Record<string, string>): Promise<Startup> {
  const results: StartupRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await startOnce(env));
  const later = results.length > 1 ? results.slice(1) : results;
  return {
    runs: results,
    medianMs: median(later.map((r) => r.ms)),
    rssMb: median(later.map((r) => r.rssMb)),
  };
}
