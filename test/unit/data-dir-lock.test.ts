/**
 * The embedded data directory's lock (src/db/data-dir-lock.ts): held, stale, reused, raced;
 * and held from another PID namespace or host (a container, NFS), where a pid means nothing:
 * alive while its heartbeat is fresh, never released by a process that happens to share
 * its pid.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  DataDirLockedError,
  HEARTBEAT_MS,
  HEARTBEAT_STALE_MS,
  lockDataDir,
  lockHolder,
  processStartTime,
  type LockOwner,
} from '../../src/db/data-dir-lock.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('booking-lock-');

const writeLock = (dir: string, owner: Partial<LockOwner>) =>
  fs.writeFileSync(
    path.join(dir, '.lock'),
    JSON.stringify({ pid: 1, processStart: null, role: 'server', since: 'then', ...owner }),
  );

/** Where a lock written in another container or on another host says it was taken. */
const elsewhere = { hostname: 'other-host', bootId: 'another-boot', pidNamespace: 'pid:[1]' };

/** Sets the lock's heartbeat (its mtime) to `ageMs` ago. */
const beatAgo = (dir: string, ageMs: number) => {
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(path.join(dir, '.lock'), then, then);
};

/** The pid of a process that has exited (the pid is free, or another process's by now). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout as unknown as number;
}

describe('the data directory lock', () => {
  it('is held by one taker at a time, names the holder, and is free again once released', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    expect(lockHolder(dir)).toMatchObject({ pid: process.pid, role: 'server' });
    let refusal: unknown;
    try {
      lockDataDir(dir, 'cli migrate');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toContain(`process ${process.pid} (server`);
    expect((refusal as Error).message.split('\n')).toHaveLength(1);
    lock.release();
    expect(lockHolder(dir)).toBeUndefined();
    lockDataDir(dir, 'again').release();
  });

  it('takes over the lock of a process that no longer runs (kill -9)', () => {
    const dir = tempDir();
    writeLock(dir, { pid: Number(deadPid()) });
    expect(lockHolder(dir)).toBeUndefined();
    const lock = lockDataDir(dir, 'server');
    expect(lockHolder(dir)?.pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(processStartTime(process.pid) !== null)(
    'takes over a lock whose pid now belongs to another process (pid reuse)',
    () => {
      const dir = tempDir();
      // Our own pid, but a start time that is not ours: the writer was another process.
      writeLock(dir, { pid: process.pid, processStart: '1' });
      lockDataDir(dir, 'server').release();
    },
  );

  it('takes over a lock file it cannot read', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, '.lock'), 'not json');
    lockDataDir(dir, 'server').release();
  });

  it('never releases a lock that is not its own', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    writeLock(dir, { pid: 999_999_999 });
    lock.release();
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(true);
  });

  it('records the host, boot and PID namespace that hold it', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    try {
      const holder = lockHolder(dir)!;
      expect(holder.host?.hostname).toBe(os.hostname());
      if (fs.existsSync('/proc/self/ns/pid')) {
        expect(holder.host?.bootId).toMatch(/^[0-9a-f-]{36}$/);
        expect(holder.host?.pidNamespace).toBe(fs.readlinkSync('/proc/self/ns/pid'));
      }
    } finally {
      lock.release();
    }
  });

  it('refuses a lock held in another PID namespace or on another host while its heartbeat is fresh', () => {
    // Its pid means nothing here: absent (ESRCH), or someone else's (pid 1 in each container).
    for (const pid of [Number(deadPid()), 1, process.pid]) {
      const dir = tempDir();
      writeLock(dir, {
        pid,
        processStart: processStartTime(pid) === null ? null : '1',
        host: elsewhere,
      });
      beatAgo(dir, HEARTBEAT_STALE_MS - 5_000);
      expect(lockHolder(dir)?.pid, `pid ${pid}`).toBe(pid);
      let refusal: unknown;
      try {
        lockDataDir(dir, 'cli users create').release();
      } catch (error) {
        refusal = error;
      }
      expect(refusal, `pid ${pid}`).toBeInstanceOf(DataDirLockedError);
      expect((refusal as Error).message).toContain(`process ${pid} (server`);
      expect((refusal as Error).message).toContain('other-host');
      expect(JSON.parse(fs.readFileSync(path.join(dir, '.lock'), 'utf8'))).toMatchObject({ pid });
    }
  });

  it('takes over a lock from another PID namespace or host once its heartbeat is stale', () => {
    const dir = tempDir();
    // Alive by pid and start time as seen from here: only the heartbeat can tell.
    writeLock(dir, {
      pid: process.pid,
      processStart: processStartTime(process.pid),
      host: elsewhere,
    });
    beatAgo(dir, HEARTBEAT_STALE_MS + 1_000);
    expect(lockHolder(dir)).toBeUndefined();
    const lock = lockDataDir(dir, 'server');
    expect(lockHolder(dir)?.host?.hostname).toBe(os.hostname());
    lock.release();
  });

  it('never releases a lock another namespace took under the same pid', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    // Ours went stale (say, a frozen container) and pid 1 of another one took it over.
    writeLock(dir, {
      pid: process.pid,
      processStart: processStartTime(process.pid),
      host: elsewhere,
    });
    lock.release();
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(true);
  });

  it('refreshes its heartbeat while held, and stops when released', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const dir = tempDir();
      const lock = lockDataDir(dir, 'server');
      beatAgo(dir, HEARTBEAT_STALE_MS + 1_000);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      const age = Date.now() - fs.statSync(path.join(dir, '.lock')).mtimeMs;
      expect(age).toBeLessThan(HEARTBEAT_MS);
      expect(HEARTBEAT_MS * 3).toBeLessThanOrEqual(HEARTBEAT_STALE_MS);
      lock.release();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets exactly one of several processes racing for a stale lock win', async () => {
    const dir = tempDir();
    writeLock(dir, { pid: Number(deadPid()) });
    const module = path.resolve('src/db/data-dir-lock.ts');
    const script = `
      import { lockDataDir } from ${JSON.stringify(module)};
      try { lockDataDir(${JSON.stringify(dir)}, 'racer'); console.log('won'); setTimeout(() => {}, 1500); }
      catch (e) { console.log(e.name); }`;
    const racers = Array.from(
      { length: 6 },
      () =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, [
            '--import',
            'tsx',
            '--input-type=module',
            '-e',
            script,
          ]);
          let out = '';
          child.stdout.on('data', (c: Buffer) => (out += c.toString()));
          child.on('exit', () => resolve(out.trim()));
        }),
    );
    const outcomes = await Promise.all(racers);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DataDirLockedError')).toHaveLength(5);
  }, 30_000);
});
