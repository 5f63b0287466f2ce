/**
 * The hold sweeper: a background loop that releases holds (item status 103) whose deadline
 * passed, giving their seats back. Any number of instances may run it: each order is locked
 * and its deadline checked again in its own transaction, so a hold is released once.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pollLoop, type PollLoop } from '../../outbox/index.js';

const BATCH = 100;

export function createHoldSweeper(deps: {
  releaseExpiredHolds(limit: number): Promise<number>;
  sweepMs: number;
  logger: FastifyBaseLogger;
}): PollLoop {
  return pollLoop(
    'hold sweeper',
    async () => {
      const released = await deps.releaseExpiredHolds(BATCH);
      if (released > 0) deps.logger.info({ released }, 'expired holds released');
      // A full batch means more may be due: go on at once.
      return released === BATCH ? 0 : deps.sweepMs;
    },
    (error) => {
      deps.logger.error({ err: error }, 'releasing expired holds failed');
      return deps.sweepMs;
    },
  );
}
