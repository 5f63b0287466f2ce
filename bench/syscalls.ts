/**
 * `npx tsx bench/syscalls.ts [bench flags]`: the system calls a request costs the service and
 * the floor server (floor-server.ts, prepared statements) for the same read, counted by
 * `strace -c -f` attached to each while `--connections` callers send `--duration` seconds of
 * that read (`--only` picks scenarios). A request's kernel time (socket writes and reads,
 * epoll, timers) is not in the instruction counts of bench/instructions.ts, and on a VM it is
 * a large part of the CPU time bench/run.ts compares; the count of each call per request says
 * where the two servers differ. Before the traced window, an untraced one of the same length
 * reads each server's CPU per request from /proc split into user space and kernel (strace
 * stops the process at every call, so the traced window's times say nothing). Prints a
 * Markdown table per scenario.
 */
import { spawn } from 'node:child_process';
import { openDatabase } from '../src/db/database.js';
import { createCredentials } from './accounts.js';
import { processCpuSplitMs } from './cpu-time.js';
import { benchSetup } from './database.js';
import { runLoad } from './load.js';
import { benchOptions, onlyPicks } from './options.js';
import { startFloorServer, startService, type Running } from './processes.js';
import { readScenarios } from './scenarios.js';

const options = benchOptions(process.argv.slice(2), process.env);
const log = (line: string) => process.stderr.write(`[syscalls] ${line}\n`);
const wanted = (name: string) => onlyPicks(options.only, name);
const connections = options.connections[0]!;

/** strace's summary of `pid` (all its threads) while `work` runs: calls by name. */
async function traced(pid: number, work: () => Promise<number>) {
  const strace = spawn('strace', ['-c', '-f', '-q', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let summary = '';
  strace.stderr.on('data', (chunk: Buffer) => (summary += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const requests = await work();
  const ended = new Promise((resolve) => strace.once('close', resolve));
  strace.kill('SIGINT');
  await ended;
  const calls = new Map<string, number>();
  for (const line of summary.split('\n')) {
    const cells = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors], syscall
    if (cells.length >= 5 && /^\d/.test(cells[0]!) && cells.at(-1) !== 'total')
      calls.set(cells.at(-1)!, Number(cells[3]));
  }
  return { calls, requests };
}

const { record, env } = await benchSetup(options, log);
const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 2 });
const servers: { name: string; running: Running }[] = [];
try {
  servers.push({ name: 'ours', running: await startService(env) });
  servers.push({
    name: 'floor, prepared',
    running: await startFloorServer(options.databaseUrl, 'prepared', options.poolSize ?? 10),
  });
  const credentials = await createCredentials(
    servers[0]!.running.baseUrl,
    env,
    record.biggestSeller,
  );
  const reads = (
    await readScenarios(database.db, servers[0]!.running.baseUrl, credentials, 500)
  ).filter((read) => wanted(read.name));
  for (const read of reads) {
    const counted: {
      name: string;
      calls: Map<string, number>;
      requests: number;
      cpu: { user: number; kernel: number };
    }[] = [];
    for (const { name, running } of servers) {
      const load = (durationSec: number) =>
        runLoad({
          url: running.baseUrl,
          connections,
          durationSec,
          method: 'GET',
          headers: { 'x-api-key': read.apiKey },
          paths: read.paths,
        });
      await load(options.warmupSec);
      const before = processCpuSplitMs(running.pid);
      const untraced = Math.max((await load(options.durationSec)).statuses['200'] ?? 0, 1);
      const after = processCpuSplitMs(running.pid);
      const cpu = {
        user: (after.user - before.user) / untraced,
        kernel: (after.kernel - before.kernel) / untraced,
      };
      const { calls, requests } = await traced(running.pid, async () => {
        const result = await load(options.durationSec);
        return result.statuses['200'] ?? 0;
      });
      counted.push({ name, calls, requests, cpu });
    }
    const names = [...new Set(counted.flatMap(({ calls }) => [...calls.keys()]))].sort(
      (a, b) => (counted[0]!.calls.get(b) ?? 0) - (counted[0]!.calls.get(a) ?? 0),
    );
    const per = (n: number | undefined, requests: number) => ((n ?? 0) / requests).toFixed(2);
    process.stdout.write(
      [
        `### ${read.name} (${connections} connections, ${options.durationSec} s under strace)`,
        '',
        `| system call | ${counted.map(({ name }) => `${name}, per request`).join(' | ')} |`,
        `| --- | ${counted.map(() => '---:').join(' | ')} |`,
        ...names.map(
          (call) =>
            `| ${call} | ${counted.map(({ calls, requests }) => per(calls.get(call), requests)).join(' | ')} |`,
        ),
        `| (requests answered 200) | ${counted.map(({ requests }) => requests).join(' | ')} |`,
        '',
        `CPU per request, µs, untraced (${options.durationSec} s each, /proc):`,
        '',
        `| CPU | ${counted.map(({ name }) => name).join(' | ')} |`,
        `| --- | ${counted.map(() => '---:').join(' | ')} |`,
        ...(['user', 'kernel'] as const).map(
          (part) =>
            `| ${part === 'user' ? 'user space' : 'kernel'} | ${counted.map(({ cpu }) => (cpu[part] * 1000).toFixed(0)).join(' | ')} |`,
        ),
        '',
      ].join('\n'),
    );
  }
} finally {
  for (const { running } of servers) await running.stop();
  await database.close();
}
