/**
 * Reading a V8 CPU profile (`node --cpu-prof`): self time grouped by where the code lives
 * (our modules, each npm package, Node's own modules, V8's garbage collector and its
 * native work), and the hottest functions. Pure: takes the parsed profile, returns numbers.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  /** Of the time not idle. */
  percent: number;
}

export interface ProfileSummary {
  /** Wall time the profile covers, and the part of it the thread was not idle. */
  totalMs: number;
  busyMs: number;
  groups: Share[];
  functions: Share[];
}

/** Where a function lives, for grouping: "ours: modules/orders", "pg", "node: net", "GC". */
export function groupOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8: garbage collector';
    if (functionName === '(program)') return 'V8: native (program)';
    if (functionName === '(idle)') return '(idle)';
    // writev, JSON.parse, ...: C++ behind a JavaScript call, with no script of its own
    return 'native (C++ bindings, V8 builtins)';
  }
  // The innermost package: node_modules/a/node_modules/b/x.js is b's code.
  const inPackage = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].at(-1);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:')) {
    // node:internal/streams/writable -> streams; node:_http_outgoing -> http; node:net -> net
    const name = url.slice('node:'.length).replace(/^internal\//, '');
    const first = name.split('/')[0]!;
    return `node: ${first.replace(/^_?(http|tls|stream)_?.*$/, '$1')}`;
  }
  const ours = /\/dist\/(.+)$/.exec(url) ?? /\/src\/(.+)$/.exec(url);
  if (ours) {
    const parts = ours[1]!.split('/');
    return `ours: ${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!.replace(/\.js$|\.ts$/, '')}`;
  }
  return url;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The `top` names by time (ms), each with its share of `busyMs`. */
export function ranked(times: Map<string, number>, busyMs: number, top: number): Share[] {
  return [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms: round(ms), percent: round((ms / busyMs) * 100) }));
}

/**
 * `window`: only the samples taken between these two instants (µs of the system's monotonic
 * clock, which V8's profile timestamps and `process.hrtime` both read on Linux), so start-up
 * and warm-up stay out.
 */
export function summarize(
  profile: CpuProfile,
  top = 20,
  window?: { fromUs: number; toUs: number },
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; the sample owns the interval that follows it.
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + next);
  }
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const group = groupOf(frame);
    totalUs += us;
    if (group === '(idle)') {
      idleUs += us;
      continue;
    }
    groups.set(group, (groups.get(group) ?? 0) + us / 1000);
    const where = frame.url
      ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${frame.lineNumber + 1}`
      : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us / 1000);
  }
  const busyMs = (totalUs - idleUs) / 1000;
  return {
    totalMs: round(totalUs / 1000),
    busyMs: round(busyMs),
    groups: ranked(groups, busyMs, top),
    functions: ranked(functions, busyMs, top),
  };
}
