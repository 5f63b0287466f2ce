/**
 * Two processes taking over one stale data-directory lock (src/db/data-dir-lock.ts): the one
 * whose mkdir of the takeover directory fails because the other has it, and which then
 * finds that directory already gone (the other finished in between), tries again and takes
 * the lock; it used to die with a TypeError reading the missing directory's mtime. The
 * window is a few microseconds between two system calls, so it is made here by faking them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lockDataDir } from '../../src/db/data-dir-lock.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('taking over a stale lock', () => {
  it('tries again when the other taker has finished between its mkdir and our stat', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-takeover-'));
    dirs.push(dir);
    // A lock left by a process that no longer runs (no such pid).
    fs.writeFileSync(
      path.join(dir, '.lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, processStart: null, role: 'dead', since: 'then' }),
    );
    const isTakeover = (p: fs.PathLike) => String(p).endsWith('.lock.takeover');
    const mkdir = fs.mkdirSync.bind(fs);
    let raced = false;
    vi.spyOn(fs, 'mkdirSync').mockImplementation(((
      p: fs.PathLike,
      options?: fs.MakeDirectoryOptions,
    ) => {
      if (isTakeover(p) && !raced) {
        raced = true; // the other process holds the takeover directory...
        throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${String(p)}'`), {
          code: 'EEXIST',
        });
      }
      return mkdir(p, options);
    }) as typeof fs.mkdirSync);
    const stat = fs.statSync.bind(fs);
    vi.spyOn(fs, 'statSync').mockImplementation(((p: fs.PathLike, options?: fs.StatSyncOptions) =>
      // ...and has removed it by the time we look at it.
      isTakeover(p) ? undefined : stat(p, options)) as typeof fs.statSync);

    const lock = lockDataDir(dir, 'test');
    try {
      expect(raced).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(dir, '.lock'), 'utf8'))).toMatchObject({
        pid: process.pid,
        role: 'test',
      });
    } finally {
      lock.release();
    }
  });
});
