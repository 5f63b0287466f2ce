/**
 * Child processes of the bench: the service under test (package.json's `start` command, as
 * production runs it), the bare node:http baseline, the floor server, and their resident
 * memory, read from /proc while the load runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');

export function build(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms until stopped; returns the highest seen. */
export function sampleRss(pid: number): () => number {
  let highest = rssMb(pid);
  const timer = setInterval(() => (highest = Math.max(highest, rssMb(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(highest, rssMb(pid));
  };
}

export interface Running {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Resolves once `url` answers 2xx; fails if `child` exits first or `timeoutMs` passes. */
export async function waitUntilReady(
  url: string,
  child: ChildProcess,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not become ready at ${url}`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

/**
 * The arguments of node in package.json's `start` script (`node [flags] dist/...`), so the
 * bench starts the service exactly as `npm start` does: same entry, same flags. `root`: another
 * checkout, started as its own package.json says.
 */
export function startArgs(root = ROOT): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: { start?: string };
  };
  const words = (pkg.scripts?.start ?? '').trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2)
    throw new Error(`the start script is not "node [flags] <entry>": ${pkg.scripts?.start}`);
  return words.slice(1);
}

/** Starts the built service (node's arguments: `npm start`'s unless given); resolves when /readyz answers. */
export async function startService(
  env: Record<string, string>,
  args: string[] = startArgs(),
): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${baseUrl}/readyz`, child, 'the service');
  return { child, pid: child.pid!, baseUrl, stop: stopper(child) };
}

/** Runs a bench server script (TypeScript, through tsx) as a child; resolves when it answers. */
async function startScript(script: string, args: string[], what: string): Promise<Running> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, script), String(port), ...args],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(baseUrl, child, what);
  return { child, pid: child.pid!, baseUrl, stop: stopper(child) };
}

/** Starts the bare node:http baseline answering every request with `bodyBytes` of JSON. */
export function startBareServer(bodyBytes: number): Promise<Running> {
  return startScript('bare-server.ts', [String(bodyBytes)], 'the bare node:http server');
}

/** Starts node:http + pg running `queries` in turn, one per request (bare-sql-server.ts). */
export async function startBareSqlServer(
  databaseUrl: string,
  queries: { sql: string; parameters: readonly unknown[] }[],
): Promise<Running> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sql-'));
  const file = path.join(dir, 'queries.json');
  fs.writeFileSync(
    file,
    JSON.stringify(queries.map((q) => ({ sql: q.sql, parameters: q.parameters }))),
  );
  const server = await startScript(
    'bare-sql-server.ts',
    [databaseUrl, file],
    'the bare node:http + pg server',
  );
  return {
    ...server,
    stop: () => server.stop().finally(() => fs.rmSync(dir, { recursive: true })),
  };
}

/** Starts the floor server (floor-server.ts) on `databaseUrl`, plain or with named statements. */
export function startFloorServer(
  databaseUrl: string,
  mode: 'plain' | 'prepared',
  poolSize: number,
): Promise<Running> {
  return startScript(
    'floor-server.ts',
    [databaseUrl, mode, String(poolSize)],
    `the floor server (${mode})`,
  );
}
