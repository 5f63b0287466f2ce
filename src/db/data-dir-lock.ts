/**
 * One process per embedded data directory. PGlite keeps the database in memory and writes
 * it back to DATA_DIR; two processes on one directory would each see only their own writes
 * and overwrite each other's (silent data loss). So the first process takes `DATA_DIR/.lock`
 * and a second one refuses at once, naming the holder.
 *
 * The lock is a file created atomically (link(2) of a complete temporary file, which fails
 * when the lock exists) holding the owner's pid, its start time, what it is, and where it
 * runs: hostname, boot id and PID namespace. A lock left by a process that no longer runs
 * (kill -9, a crash) is stale and taken over at once: the pid is not alive, or (on Linux)
 * the process now running under that pid started at another time, i.e. the pid was reused.
 * Two processes taking over the same stale lock at the same moment serialize on a takeover
 * directory (mkdir is atomic), so exactly one wins.
 *
 * A pid says nothing about a lock taken in another PID namespace or on another host (a
 * container beside the server's on a shared volume, where both are pid 1; NFS). There the
 * holder proves it is alive by a heartbeat instead: it touches the lock file's mtime every
 * HEARTBEAT_MS, and its lock counts as stale only once that is older than
 * HEARTBEAT_STALE_MS (clocks must agree within a few seconds, which NTP gives). A lock
 * without a `host` (written before it was recorded) is judged by its pid, as before.
 *
 * The heartbeat runs on the event loop, so a statement that holds it past HEARTBEAT_STALE_MS
 * lets a process elsewhere take the lock over. Each beat therefore also checks that the lock
 * file is still ours (the same inode): a holder whose lock was taken over or deleted (two
 * beats in a row: a network file system may answer "no such file" for a moment) exits at
 * once, as after a crash, rather than go on writing beside another process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where a process runs: its pid means something only to another with the same three. */
export interface LockHost {
  hostname: string;
  /** /proc/sys/kernel/random/boot_id: one kernel, one boot (Linux), else null. */
  bootId: string | null;
  /** readlink /proc/self/ns/pid, e.g. `pid:[4026531836]` (Linux), else null. */
  pidNamespace: string | null;
}

export interface LockOwner {
  pid: number;
  /** The process's start time as the kernel counts it (Linux), for pid-reuse detection. */
  processStart: string | null;
  /** What holds it: `server`, `cli migrate`, ... */
  role: string;
  /** When it was taken, ISO 8601. */
  since: string;
  /** Absent in a lock written before hosts were recorded: judged by its pid alone. */
  host?: LockHost;
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
      `The data directory ${dataDir} is in use by process ${holder.pid} (${holder.role}, since ${holder.since}${elsewhere(holder)}); ` +
        'one process at a time may open an embedded database.',
    );
  }
}

const LOCK = '.lock';
const TAKEOVER = '.lock.takeover';
/** A takeover directory older than this was left by a process killed mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;
/** How often a holder touches its lock file (an unref'd timer: it keeps no process alive). */
export const HEARTBEAT_MS = 5_000;
/**
 * A lock from another PID namespace or host whose heartbeat is older than this is stale:
 * six missed beats, room for clock skew and for an event loop held by one long statement of
 * the embedded database (the beat runs on it). Also how long a restarted container waits
 * for the lock its crashed predecessor left.
 */
export const HEARTBEAT_STALE_MS = 30_000;

let here: LockHost | undefined;
/** This process's host, boot and PID namespace (read once: they do not change). */
export function thisHost(): LockHost {
  const read = (what: () => string) => {
    try {
      return what().trim() || null;
    } catch {
      return null;
    }
  };
  here ??= {
    hostname: os.hostname(),
    bootId: read(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: read(() => fs.readlinkSync('/proc/self/ns/pid')),
  };
  return here;
}

/** Whether `owner`'s pid is one this process can look up (same host, boot, PID namespace). */
function sameNamespace(owner: LockOwner): boolean {
  if (!owner.host) return true;
  const me = thisHost();
  return (
    owner.host.hostname === me.hostname &&
    owner.host.bootId === me.bootId &&
    owner.host.pidNamespace === me.pidNamespace
  );
}

/** For the refusal: where a holder this process cannot see runs. */
function elsewhere(owner: LockOwner): string {
  return sameNamespace(owner)
    ? ''
    : `, on ${owner.host!.hostname} in another PID namespace or host`;
}

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

/**
 * Whether the process that wrote `owner` still runs: in this PID namespace, whether it is
 * still the one running under its pid; elsewhere, whether its heartbeat (the lock file's
 * mtime, `beatMs`) is recent.
 */
export function isAlive(owner: LockOwner, beatMs: number): boolean {
  if (!sameNamespace(owner)) return Date.now() - beatMs <= HEARTBEAT_STALE_MS;
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

interface LockState {
  text: string;
  /** Undefined for a file that does not parse (torn): taken over as stale. */
  owner: LockOwner | undefined;
  /** Its mtime: the holder's last heartbeat. */
  beatMs: number;
}

/** The lock file as it is, read through one open file (content and mtime of one inode). */
function readLock(file: string): LockState | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const text = fs.readFileSync(fd, 'utf8');
    return { text, owner: parseOwner(text), beatMs: fs.fstatSync(fd).mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
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
    // Gone already (the other process finished between our mkdir and this stat): the
    // caller simply tries again, like when it is still there.
    const other = fs.statSync(takeover, { throwIfNoEntry: false });
    if (other && Date.now() - other.mtimeMs > TAKEOVER_STALE_MS)
      fs.rmSync(takeover, { recursive: true, force: true });
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

/**
 * The locks this process holds, released when it exits however it exits (process.exit on
 * a shutdown that timed out, a second signal): nothing of this process runs after 'exit',
 * so its database cannot write once the lock is gone. Only SIGKILL leaves a lock behind.
 */
const held = new Set<DataDirLock>();
function hold(lock: DataDirLock): void {
  if (held.size === 0) process.on('exit', releaseAll);
  held.add(lock);
}
function releaseAll(): void {
  for (const lock of held) {
    try {
      lock.release();
    } catch {
      // Exiting anyway: a lock we cannot remove is left stale, as after kill -9.
    }
  }
}

/** Why the lock file at `file` is no longer the one open as `fd`, if it is not. */
function lostBecause(file: string, fd: number): string | undefined {
  let current: fs.Stats | undefined;
  let ours: fs.Stats;
  try {
    current = fs.statSync(file, { throwIfNoEntry: false });
    ours = fs.fstatSync(fd);
  } catch {
    // The file system went away (ESTALE on NFS): not a verdict, the next beat looks again.
    return undefined;
  }
  if (!current) return 'its lock file was deleted';
  if (current.ino !== ours.ino || current.dev !== ours.dev)
    return 'its lock file was replaced by another process';
  return undefined;
}

/**
 * What a holder does when its lock is lost: another process may have the database open by
 * now, and this one's writes would overwrite its files. Exit at once (the files recover as
 * after kill -9); one line on stderr, written synchronously, says why.
 */
function exitOnLostLock(message: string): void {
  fs.writeSync(2, `${message}\n`);
  process.exit(1);
}

export interface LockOptions {
  /** Called, once, when a heartbeat finds the lock file is no longer this lock's. */
  onLost?: (message: string) => void;
}

/** The lock, held: its heartbeat beats on `fd` (our inode, never a lock that replaced it). */
function heldLock(
  file: string,
  owner: LockOwner,
  content: string,
  fd: number,
  onLost: (message: string) => void,
): DataDirLock {
  /** Beats in a row that found the lock file not ours: one may be a file system's blink. */
  let strange = 0;
  const beat = setInterval(() => {
    const lost = lostBecause(file, fd);
    strange = lost ? strange + 1 : 0;
    if (lost && strange >= 2) {
      clearInterval(beat);
      onLost(
        `The data directory ${path.dirname(file)} is no longer held by this process (${owner.role}, pid ${owner.pid}): ` +
          `${lost}. Another process may have opened its database; stopping now so the two do not overwrite each other's files.`,
      );
      return;
    }
    try {
      const now = new Date();
      fs.futimesSync(fd, now, now);
    } catch {
      // The file system went away (ESTALE on NFS): the next beat tries again.
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const lock: DataDirLock = {
    owner,
    release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      fs.closeSync(fd);
      held.delete(lock);
      if (held.size === 0) process.off('exit', releaseAll);
      // Only our own lock, by its whole content: never one another process took after ours
      // went stale, even one from another PID namespace that has our pid.
      if (readLock(file)?.text === content) fs.rmSync(file, { force: true });
    },
  };
  hold(lock);
  return lock;
}

/** Takes the data directory's lock for this process, or throws DataDirLockedError. */
export function lockDataDir(
  dataDir: string,
  role: string,
  { onLost = exitOnLostLock }: LockOptions = {},
): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK);
  const owner: LockOwner = {
    pid: process.pid,
    processStart: processStartTime(process.pid),
    role,
    since: new Date().toISOString(),
    host: thisHost(),
  };
  const content = JSON.stringify(owner);
  const temporary = path.join(dataDir, `${LOCK}.${process.pid}.${Date.now()}`);
  // Kept open once linked: the heartbeat touches this inode.
  const fd = fs.openSync(temporary, 'wx', 0o600);
  let kept = false;
  try {
    fs.writeFileSync(fd, content);
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        fs.linkSync(temporary, file);
        kept = true;
        return heldLock(file, owner, content, fd, onLost);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readLock(file);
      // Released between our attempt and this read: try again.
      if (!holder) continue;
      if (holder.owner && isAlive(holder.owner, holder.beatMs))
        throw new DataDirLockedError(dataDir, holder.owner);
      // Dead owner, or a lock file that is not ours to read (torn): take it over.
      takeOver(dataDir, holder.text);
    }
    throw new Error(`Could not take the lock of ${dataDir}: it keeps changing hands.`);
  } finally {
    if (!kept) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
  }
}

/** Who holds the data directory's lock now, if anyone alive does. */
export function lockHolder(dataDir: string): LockOwner | undefined {
  try {
    const holder = readLock(path.join(dataDir, LOCK));
    return holder?.owner && isAlive(holder.owner, holder.beatMs) ? holder.owner : undefined;
  } catch {
    return undefined;
  }
}
