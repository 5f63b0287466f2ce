/**
 * A request's logger made on first use (http/request-logger.ts): a line at a level that is
 * off makes nothing and writes nothing; the first line at a level that is on makes pino's
 * child once, with the request's bindings, and every later line goes to it.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { requestLoggerFactory } from '../../../src/http/request-logger.js';

function logged(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  // The server's logger as the service has it: Fastify's pino.
  return { lines, logger: Fastify({ logger: { level, stream } }).log };
}

const make = (logger: FastifyBaseLogger, options = {}) =>
  requestLoggerFactory.call(Fastify(), logger, { requestId: 'r-1' }, options, {} as never);

describe('a request logger made on first use', () => {
  it('writes nothing and makes no child for a level that is off', async () => {
    const { lines, logger } = logged('warn');
    const child = vi.spyOn(logger, 'child');
    const log = make(logger);
    log.info({ a: 1 }, 'incoming request');
    log.debug('details');
    await new Promise((resolve) => setImmediate(resolve));
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes a level that is on through one child with the request's bindings", async () => {
    const { lines, logger } = logged('warn');
    const child = vi.spyOn(logger, 'child');
    const log = make(logger);
    log.warn({ a: 1 }, 'first');
    log.error('second %s', 'line');
    await new Promise((resolve) => setImmediate(resolve));
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { level: 40, requestId: 'r-1', a: 1, msg: 'first' },
      { level: 50, requestId: 'r-1', msg: 'second line' },
    ]);
    expect(log.level).toBe('warn');
  });

  it("follows the server's level as it is now", async () => {
    const { lines, logger } = logged('warn');
    const log = make(logger);
    logger.level = 'info';
    log.info('now on');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toMatchObject([{ level: 30, requestId: 'r-1', msg: 'now on' }]);
  });

  it("gives a logger that is not pino's (no isLevelEnabled) its child at once", () => {
    const made: unknown[] = [];
    const other = {
      level: 'info',
      child: (bindings: unknown) => (made.push(bindings), other),
      ...Object.fromEntries(
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((m) => [m, () => {}]),
      ),
    } as unknown as FastifyBaseLogger;
    expect(make(other)).toBe(other);
    expect(made).toEqual([{ requestId: 'r-1' }]);
  });

  it("makes a route's own level's child at once", () => {
    const { logger } = logged('warn');
    const child = vi.spyOn(logger, 'child');
    const log = make(logger, { level: 'debug' });
    expect(child).toHaveBeenCalledTimes(1);
    expect(log.level).toBe('debug');
  });
});
