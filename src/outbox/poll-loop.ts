/**
 * The polling loop of the outbox dispatchers (mail, webhooks): one poll at a time, the next
 * after the delay the poll asks for, started and stopped once. A stop may come in two steps
 * (http/module.ts, Worker): `stopClaiming` at once, `stop` to wait for the poll under way.
 * Its timer never keeps a process alive on its own (the CLI, tests); a server's socket does.
 */
export interface PollLoop {
  start(): void;
  /** Polls no more: the poll under way (if any) goes on, no other starts. */
  stopClaiming(): void;
  /** Stops polling; resolves once the poll under way (if any) has finished. */
  stop(): Promise<void>;
  /** Since `stopClaiming` or `stop`: a poll under way checks it before it claims. */
  readonly stopped: boolean;
}

/**
 * `poll` resolves to the delay before the next poll; when it throws, `onError` says the
 * delay (and reports the error).
 */
export function pollLoop(
  what: string,
  poll: () => Promise<number>,
  onError: (error: unknown) => number,
): PollLoop {
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  /** Since `stop`: starting again is a programming error. */
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function schedule(delayMs: number): void {
    if (state !== 'running') return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function stopClaiming(): void {
    state = 'stopped';
    clearTimeout(timer);
    timer = undefined;
  }

  function tick(): void {
    timer = undefined;
    running = poll().then(schedule, (error: unknown) => schedule(onError(error)));
  }

  return {
    start() {
      if (closed) throw new Error(`the ${what} has been stopped`);
      // Running; or told to claim nothing before it started (a SIGTERM during start-up: the
      // app's onReady still starts every worker, and must not fail the listen for it).
      if (state !== 'idle') return;
      state = 'running';
      schedule(0);
    },
    stopClaiming,
    async stop() {
      closed = true;
      stopClaiming();
      await running;
    },
    get stopped() {
      return state === 'stopped';
    },
  };
}
