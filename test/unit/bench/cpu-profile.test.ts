/**
 * bench/cpu-profile.ts: self time grouped by where the code lives, and only inside the
 * measured window.
 */
import { describe, expect, it } from 'vitest';
import { groupOf, summarize, type CpuProfile } from '../../../bench/cpu-profile.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });

describe('groupOf', () => {
  it.each([
    [frame('parseRow', 'file:///app/node_modules/pg/lib/result.js'), 'pg'],
    [frame('x', 'file:///app/node_modules/@fastify/cors/index.js'), '@fastify/cors'],
    [
      frame('x', 'file:///app/node_modules/a/node_modules/pg-protocol/dist/parser.js'),
      'pg-protocol',
    ],
    [frame('write', 'node:_http_outgoing'), 'node: http'],
    [frame('x', 'node:internal/streams/writable'), 'node: stream'],
    [frame('x', 'node:net'), 'node: net'],
    [frame('iso', 'file:///app/dist/modules/shared/views.js'), 'ours: modules/shared'],
    [frame('x', 'file:///app/dist/app.js'), 'ours: app'],
    [frame('(garbage collector)'), 'V8: garbage collector'],
    [frame('(idle)'), '(idle)'],
    [frame('writev'), 'native (C++ bindings, V8 builtins)'],
  ])('%j is %s', (f, group) => expect(groupOf(f)).toBe(group));
});

describe('summarize', () => {
  // Root (1) calls a (2, pg) and b (3, ours); idle is 4. Samples every 100 µs from t=1000.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('parseRow', 'file:///x/node_modules/pg/lib/result.js') },
      { id: 3, callFrame: frame('iso', 'file:///x/dist/modules/shared/views.js') },
      { id: 4, callFrame: frame('(idle)') },
    ],
    startTime: 1000,
    endTime: 1600,
    samples: [2, 2, 3, 4, 2, 3],
    timeDeltas: [0, 100, 100, 100, 100, 100],
  };

  it('gives each sample the interval after it, leaves idle out of busy', () => {
    const summary = summarize(profile);
    // The last sample has no interval after it.
    expect(summary.totalMs).toBe(0.5);
    expect(summary.busyMs).toBe(0.4);
    expect(summary.groups).toEqual([
      { name: 'pg', ms: 0.3, percent: 75 },
      { name: 'ours: modules/shared', ms: 0.1, percent: 25 },
    ]);
    expect(summary.functions[0]).toMatchObject({ name: 'parseRow pg/lib/result.js:1', ms: 0.3 });
  });

  it('counts only the samples inside the window', () => {
    // Samples at 1200 (b), 1300 (idle), 1400 (a).
    const summary = summarize(profile, 20, { fromUs: 1150, toUs: 1450 });
    expect(summary.totalMs).toBe(0.3);
    expect(summary.groups.map((g) => g.name)).toEqual(['ours: modules/shared', 'pg']);
  });
});
