/**
 * The outbox's polling loop (src/outbox/poll-loop.ts): told to claim nothing before it
 * started (a SIGTERM during start-up, before the app's onReady starts the workers), a start
 * polls nothing and does not throw, which failed the listen with a misleading error; once
 * stopped, a start is a programming error.
 */
import { describe, expect, it } from 'vitest';
import { pollLoop } from '../../src/outbox/poll-loop.js';

const loopCounting = () => {
  const polls = { n: 0 };
  const loop = pollLoop(
    'test loop',
    async () => {
      polls.n++;
      return 1;
    },
    () => 1,
  );
  return { loop, polls };
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('pollLoop', () => {
  it('polls once started, and no more once it stops claiming', async () => {
    const { loop, polls } = loopCounting();
    loop.start();
    await tick();
    expect(polls.n).toBeGreaterThan(0);
    loop.stopClaiming();
    const seen = polls.n;
    await tick();
    expect(polls.n).toBe(seen);
    expect(loop.stopped).toBe(true);
    await loop.stop();
  });

  it('starts as a no-op when told to claim nothing first', async () => {
    const { loop, polls } = loopCounting();
    loop.stopClaiming();
    expect(() => loop.start()).not.toThrow();
    await tick();
    expect(polls.n).toBe(0);
    await loop.stop();
  });

  it('refuses to start once stopped', async () => {
    const { loop } = loopCounting();
    loop.start();
    await loop.stop();
    expect(() => loop.start()).toThrow('the test loop has been stopped');
  });
});
