/**
 * Reading perf's samples of a Node process (bench/perf-samples.ts): each sample's time goes
 * to the innermost JavaScript frame of its chain, grouped as a V8 profile's frame would be,
 * the kernel's apart, and the shares add up.
 */
import { describe, expect, it } from 'vitest';
import { attribute, parseSamples, summarizeSamples } from '../../../bench/perf-samples.js';

const SCRIPT = [
  // the kernel, under a writev from Node's stream code
  '\tffffffff815ffc2d _raw_spin_unlock_irqrestore',
  '\tffffffff81600000 __x64_sys_writev',
  '\t7f0a1c2d3e60 JS:*clearBuffer node:internal/streams/writable:744:21',
  '',
  // an inline cache's handler, called from our code: ours
  '\t7f4c59ef199a Builtins_KeyedLoadIC_Megamorphic',
  '\t7f0a1c2d3e50 JS:~authenticate file:///srv/app/dist/http/auth.js:37:10',
  '\t7f0a1c2d3e51 JS:* file:///srv/app/node_modules/fastify/lib/hooks.js:230:5',
  '',
  '\t7f0a1c2d3e4f JS:*find file:///srv/app/node_modules/find-my-way/index.js:618:39',
  '',
  '\t7f0a1c2d3e51 JS:* file:///srv/app/dist/modules/orders/orders.routes.js:104:5',
  '',
  '\t7f0a1c2d3e53 RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]',
  '\t7f0a1c2d3e54 LazyCompile:*query /srv/app/node_modules/pg/lib/client.js:668:8',
  '',
  // libc with no JavaScript above it: a worker thread's
  '\t7f4c59e00000 _int_malloc',
  '\t7f4c59e00100 start_thread',
].join('\n');

describe('perf samples', () => {
  it('reads one sample per blank-line-ended chain, innermost frame first', () => {
    const samples = parseSamples(SCRIPT);
    expect(samples.map((s) => s.length)).toEqual([3, 3, 1, 1, 2, 2]);
    expect(samples[0]![0]).toEqual({ kernel: true, symbol: '_raw_spin_unlock_irqrestore' });
  });

  it('gives each sample to its innermost JavaScript frame, the kernel to the kernel', () => {
    expect(parseSamples(SCRIPT).map(attribute)).toEqual([
      { group: 'kernel', name: '[kernel] _raw_spin_unlock_irqrestore' },
      { group: 'ours: http', name: 'authenticate http/auth.js:37:10' },
      { group: 'find-my-way', name: 'find find-my-way/index.js:618:39' },
      { group: 'ours: modules/orders', name: 'modules/orders/orders.routes.js:104:5' },
      { group: 'V8: regular expressions', name: 'RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]' },
      { group: 'native (no JavaScript caller)', name: '_int_malloc' },
    ]);
  });

  it('turns counts into milliseconds at the sampling rate, shares out of all samples', () => {
    const summary = summarizeSamples(parseSamples(SCRIPT), 1000);
    expect(summary.busyMs).toBe(6);
    expect(summary.groups.reduce((sum, g) => sum + g.ms, 0)).toBe(6);
    expect(summary.groups.find((g) => g.name === 'kernel')).toEqual({
      name: 'kernel',
      ms: 1,
      percent: 16.7,
    });
  });
});
