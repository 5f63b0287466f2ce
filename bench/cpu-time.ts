/**
 * CPU time read from /proc, for CPU per request: a process's own (utime + stime), every
 * PostgreSQL process's, and the whole machine's. A process's CPU time over a run divided by
 * the requests it answered does not depend on what else the shared cores are doing, which
 * throughput does.
 */
import fs from 'node:fs';

const TICK_MS = 1000 / 100; // USER_HZ: /proc counts CPU time in 1/100 s on Linux

/** A process's /proc stat fields from its state on (field 3 of proc(5) is index 0), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * utime + stime of one process, ms (0 once it is gone); with `reapedChildren`, also the
 * CPU time of its children that ended and were waited for (cutime + cstime).
 */
export function processCpuMs(pid: number, options: { reapedChildren?: boolean } = {}): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  const own = Number(fields[11]) + Number(fields[12]);
  const reaped = options.reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0;
  return (own + reaped) * TICK_MS;
}

/**
 * One process's CPU time split into user space (utime: its JavaScript, V8, libuv, all its
 * threads) and the kernel's work for it (stime: socket reads and writes, epoll), ms.
 */
export function processCpuSplitMs(pid: number): { user: number; kernel: number } {
  const fields = statFields(pid);
  if (!fields) return { user: 0, kernel: 0 };
  return { user: Number(fields[11]) * TICK_MS, kernel: Number(fields[12]) * TICK_MS };
}

/**
 * CPU ms of all PostgreSQL server processes on this machine, those that ended included: a
 * backend that exits (a pool closing an idle connection) is reaped by the postmaster, whose
 * cutime + cstime then hold its CPU time, so a sum over live processes alone would drop it
 * and could even go down over a run.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        total += processCpuMs(Number(entry), { reapedChildren: true });
    } catch {
      // the process ended while we read
    }
  }
  return total;
}

/** Busy CPU ms of the whole machine (all cores; idle and iowait excluded). */
export function machineBusyMs(): number {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1);
  const ticks = fields.map(Number);
  const idle = ticks[3]! + ticks[4]!;
  return (ticks.reduce((a, b) => a + b, 0) - idle) * TICK_MS;
}
