/** atOnceOrAfter (src/http/sync-hooks.ts): done at once without a promise, after it with one. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { atOnceOrAfter } from '../../../src/http/sync-hooks.js';

const request = {} as FastifyRequest;
const reply = {} as FastifyReply;

describe('atOnceOrAfter', () => {
  it('calls done before returning when the work returns no promise', () => {
    const calls: unknown[][] = [];
    atOnceOrAfter(() => undefined)(request, reply, (...args) => calls.push(args));
    expect(calls).toEqual([[]]);
  });

  it('calls done once the promise settles, with its error if it fails', async () => {
    const calls: unknown[][] = [];
    let release!: () => void;
    const hook = atOnceOrAfter(() => new Promise<void>((resolve) => (release = resolve)));
    hook(request, reply, (...args) => calls.push(args));
    expect(calls).toEqual([]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([[]]);

    const failure = new Error('refused');
    const failed: unknown[][] = [];
    atOnceOrAfter(() => Promise.reject(failure))(request, reply, (...args) => failed.push(args));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed).toEqual([[failure]]);
  });

  it('lets a throw reach Fastify, which answers it as an error', () => {
    const hook = atOnceOrAfter(() => {
      throw new Error('bad header');
    });
    expect(() => hook(request, reply, () => undefined)).toThrow('bad header');
  });
});
