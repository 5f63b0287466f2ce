/**
 * A holder whose lock file is deleted or replaced under it (a process in another container
 * took it over while this one's event loop was held past the heartbeat's staleness; an
 * operator removed it) notices at its next beat, and stops rather than go on writing beside
 * another process (src/db/data-dir-lock.ts). Here with a callback in place of the exit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, lockDataDir } from '../../src/db/data-dir-lock.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('booking-lock-');

describe('a data directory lock lost under its holder', () => {
  it('notices at its next beat when its lock file is deleted or replaced, and says so once', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      for (const [what, change] of [
        ['deleted', (file: string) => fs.rmSync(file)],
        // What a takeover from another namespace does: unlink, then link its own file.
        ['replaced', (file: string) => (fs.rmSync(file), fs.writeFileSync(file, '{"pid":1}'))],
      ] as const) {
        const dir = tempDir();
        const lost: string[] = [];
        const lock = lockDataDir(dir, 'server', { onLost: (message) => lost.push(message) });
        vi.advanceTimersByTime(HEARTBEAT_MS);
        expect(lost, 'while the lock is its own').toEqual([]);
        change(path.join(dir, '.lock'));
        vi.advanceTimersByTime(HEARTBEAT_MS * 3);
        expect(lost, what).toHaveLength(1);
        expect(lost[0]).toContain(`The data directory ${dir} is no longer held by this process`);
        expect(lost[0]).toContain(`its lock file was ${what}`);
        lock.release();
        // The other process's lock, if any, is left alone.
        expect(fs.existsSync(path.join(dir, '.lock'))).toBe(what === 'replaced');
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
