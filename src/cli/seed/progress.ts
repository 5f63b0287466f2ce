/**
 * Progress of a long seeding run on stderr (stdout stays free for the summary). On a
 * terminal: one bar redrawn in place with the rate and the time left. Otherwise (CI logs,
 * pipes): plain lines, at most one every few seconds per step, so logs stay readable.
 */

export interface Progress {
  /** Starts a step of `total` units (rows, indexes); 0 means a step with no count. */
  step(name: string, total?: number, unit?: string): void;
  /** `done` units of the current step are finished. */
  update(done: number): void;
  /** Ends the current step and prints how long it took. */
  end(note?: string): void;
}

const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 28;

const grouped = (n: number) => Math.round(n).toLocaleString('en-US');

export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
}

export function createProgress(
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = () => performance.now(),
): Progress {
  const tty = Boolean(stream.isTTY);
  let name = '';
  let unit = '';
  let total = 0;
  let started = 0;
  let lastLine = 0;
  let done = 0;

  function describe(): string {
    const elapsed = now() - started;
    const rate = elapsed > 0 ? (done * 1000) / elapsed : 0;
    const eta = rate > 0 ? duration(((total - done) / rate) * 1000) : '?';
    const percent = total > 0 ? Math.floor((done * 100) / total) : 0;
    return `${grouped(done)}/${grouped(total)} ${unit} ${String(percent).padStart(3)}%  ${grouped(rate)} ${unit}/s  ETA ${eta}`;
  }

  function draw(): void {
    if (total <= 0) return;
    if (tty) {
      const filled = Math.round((BAR_WIDTH * done) / total);
      const bar = '#'.repeat(filled) + '.'.repeat(BAR_WIDTH - filled);
      const columns = stream.columns ?? 100;
      stream.write(`\r${`${name} [${bar}] ${describe()}`.slice(0, columns - 1)}\x1b[K`);
    } else if (now() - lastLine >= LINE_EVERY_MS) {
      lastLine = now();
      stream.write(`${name}: ${describe()}\n`);
    }
  }

  return {
    step(stepName, stepTotal = 0, stepUnit = 'rows') {
      name = stepName;
      total = stepTotal;
      unit = stepUnit;
      done = 0;
      started = now();
      lastLine = started;
      if (tty) stream.write(`\r${name}...\x1b[K`);
    },
    update(value) {
      done = value;
      draw();
    },
    end(note) {
      const took = duration(now() - started);
      const counted = total > 0 ? ` ${grouped(total)} ${unit}` : '';
      const line = `${name}:${counted} in ${took}${note ? ` (${note})` : ''}`;
      stream.write(tty ? `\r${line}\x1b[K\n` : `${line}\n`);
    },
  };
}

/** A Progress that prints nothing (library use, tests). */
export const silentProgress: Progress = { step() {}, update() {}, end() {} };
