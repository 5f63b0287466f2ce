/**
 * Reading Linux perf's samples of a Node process (`perf record -g` while it runs with
 * `--perf-basic-prof`, then `perf script -F ip,sym`): self time grouped as a V8 CPU
 * profile's is (cpu-profile.ts), plus the kernel's. perf samples a thread only while it is
 * on a CPU, where V8's profiler records the main thread on a timer whatever it is doing: a
 * `writev` that wakes PostgreSQL and is preempted by it counts in V8's profile for as long
 * as the thread waits to run again. As in V8's profile, time in a builtin or in C++ called
 * from JavaScript (an inline cache's handler, a binding) is the calling function's: each
 * sample goes to the innermost JavaScript frame of its call chain, the kernel's to the
 * kernel. Pure: takes the script's text, returns numbers.
 */
import { groupOf, ranked, type ProfileSummary } from './cpu-profile.js';

/** One sample's call chain, innermost first: each frame's symbol, and whether it is the kernel's. */
export type Sample = { kernel: boolean; symbol: string }[];

/**
 * `perf script -F ip,sym` of a recording with call chains: a sample is its frames, one
 * `<hex address> <symbol>` line each, innermost first; a blank line ends it.
 */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  let frames: Sample = [];
  for (const line of text.split('\n')) {
    const match = /^\s*([0-9a-f]+)\s+(.*)$/.exec(line);
    if (match) {
      // x86-64 puts the kernel in the top half of the address space.
      const kernel = match[1]!.length === 16 && match[1]!.startsWith('f');
      frames.push({ kernel, symbol: match[2]!.trim() });
    } else if (line.trim() === '' && frames.length > 0) {
      samples.push(frames);
      frames = [];
    }
  }
  if (frames.length > 0) samples.push(frames);
  return samples;
}

/**
 * A JIT symbol of Node's perf map: `JS:*name url:line:column` (`*` optimized, `~` not,
 * `^` baseline; older Nodes say `LazyCompile:`), where `name` may be empty.
 */
function jsFrame(symbol: string): { functionName: string; url: string; lineNumber: number } | null {
  const js =
    /^(?:JS|LazyCompile|Function):[*~^+]?(.*?)\s*((?:file:\/\/|node:|\/)\S*?):(\d+):\d+$/.exec(
      symbol,
    );
  return js ? { functionName: js[1]!, url: js[2]!, lineNumber: Number(js[3]) - 1 } : null;
}

/** `find file:///srv/app/node_modules/find-my-way/index.js:618:39` -> `find find-my-way/index.js:618:39` */
const shortName = (symbol: string) =>
  symbol
    .replace(/^(?:JS|LazyCompile|Function):[*~^+]?/, '')
    .replace(/(?:file:\/\/)?\/\S*\/(?:node_modules|dist)\//, '')
    .trim();

/** Where a sample's time goes: its group (cpu-profile.ts's, `kernel`) and its function. */
export function attribute(sample: Sample): { group: string; name: string } {
  const leaf = sample[0]!;
  if (leaf.kernel) return { group: 'kernel', name: `[kernel] ${leaf.symbol}` };
  for (const frame of sample) {
    if (frame.kernel) continue;
    if (frame.symbol.startsWith('RegExp:'))
      return { group: 'V8: regular expressions', name: frame.symbol };
    const js = jsFrame(frame.symbol);
    if (js) return { group: groupOf(js), name: shortName(frame.symbol) };
  }
  return { group: 'native (no JavaScript caller)', name: leaf.symbol };
}

/** Self time by group and by function; `hz` is the sampling frequency given to perf. */
export function summarizeSamples(samples: Sample[], hz: number, top = 20): ProfileSummary {
  const msPerSample = 1000 / hz;
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const sample of samples) {
    const { group, name } = attribute(sample);
    groups.set(group, (groups.get(group) ?? 0) + msPerSample);
    functions.set(name, (functions.get(name) ?? 0) + msPerSample);
  }
  // Only time on a CPU is sampled: all of it is busy; the wall time is not known here.
  const busyMs = samples.length * msPerSample;
  const summary = {
    groups: ranked(groups, busyMs, top),
    functions: ranked(functions, busyMs, top),
  };
  const rounded = Math.round(busyMs * 10) / 10;
  return { totalMs: rounded, busyMs: rounded, ...summary };
}
