/**
 * One process per embedded data directory. PGlite keeps the database in memory and writes
 * it back to DATA_DIR; two processes on one directory would each see only their own writes
 * and overwrite each other's (silent data loss). So the first process takes `DATA_DIR/.lock`
 * and a second one refuses at once, naming the holder.
 *
 * The lock is a file created atomically (link(2) of a complete temporary file, which fails
 * when the lock exists) holding the owner's pid, its start time and what it is. A lock left
 * by a process that no longer runs (kill -9, a crash) is stale and taken over at once: the
 * pid is not alive, or (on Linux) the process now running under that pid started at another
 * time, i.e. the pid was reused. Two processes taking over the same stale lock at the same
 * moment serialize on a takeover directory (mkdir is atomic), so exactly one wins.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface LockOwner {
  pid: number;
  /** The process's start time as the kernel counts it (Linux), for pid-reuse detection. */
  processStart: string | null;
  /** What holds it: `server`, `cli migrate`, ... */
  role: string;
  /** When it was taken, ISO 8601. */
  since: string;
}

export interface DataDirLock {
  readonly owner: LockOwner;
  release(): void;
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockOwner,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${holder.pid} (${holder.role}, since ${holder.since}); ` +
        'one process at a time may open an embedded database.',
    );
  }
}

const LOCK = '.lock';
const TAKEOVER = '.lock.takeover';
/** A takeover directory older than this was left by a process killed mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null off Linux. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `owner` is still the one running under its pid. */
export function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else. ESRCH: no such process.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStartTime(owner.pid);
  // Where /proc is available, a different start time means the pid was reused.
  return start === null || owner.processStart === null || start === owner.processStart;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a stale lock, unless another process is doing so (then the caller tries again). */
function takeOver(dataDir: string, stale: string): void {
  const takeover = path.join(dataDir, TAKEOVER);
  try {
    fs.mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - fs.statSync(takeover, { throwIfNoEntry: false })!.mtimeMs;
    if (age > TAKEOVER_STALE_MS) fs.rmSync(takeover, { recursive: true, force: true });
    return;
  }
  try {
    const file = path.join(dataDir, LOCK);
    // Only the lock we judged stale: another process may have replaced it meanwhile.
    if (fs.readFileSync(file, 'utf8') === stale) fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    fs.rmSync(takeover, { recursive: true, force: true });
  }
}

/** Takes the data directory's lock for this process, or throws DataDirLockedError. */
export function lockDataDir(dataDir: string, role: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK);
  const owner: LockOwner = {
    pid: process.pid,
    processStart: processStartTime(process.pid),
    role,
    since: new Date().toISOString(),
  };
  const content = JSON.stringify(owner);
  const temporary = path.join(dataDir, `${LOCK}.${process.pid}.${Date.now()}`);
  fs.writeFileSync(temporary, content, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        fs.linkSync(temporary, file);
        let released = false;
        return {
          owner,
          release() {
            if (released) return;
            released = true;
            // Only our own lock: never one another process took after ours went stale.
            if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let holderText: string;
      try {
        holderText = fs.readFileSync(file, 'utf8');
      } catch (error) {
        // Released between our attempt and this read: try again.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const holder = readOwner(file);
      if (holder && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
      // Dead owner, or a lock file that is not ours to read (torn): take it over.
      takeOver(dataDir, holderText);
    }
    throw new Error(`Could not take the lock of ${dataDir}: it keeps changing hands.`);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** Who holds the data directory's lock now, if anyone alive does. */
export function lockHolder(dataDir: string): LockOwner | undefined {
  const holder = readOwner(path.join(dataDir, LOCK));
  return holder && isAlive(holder) ? holder : undefined;
}
