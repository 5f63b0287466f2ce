/**
 * Host lookups for webhooks, a few at a time and each within a deadline. `dns.lookup` runs
 * on libuv's thread pool (four threads), which password hashing shares, and a name server
 * that never answers holds a thread for the resolver's whole timeout: a few hook URLs on
 * such a name, made or delivered to at once, stalled every sign-in. So at most `width`
 * lookups run at a time (the others wait their turn), and a caller waiting longer than
 * `deadlineMs` in all is answered with a timeout; a lookup it started still ends on its own.
 */
import type { LookupAddress } from 'node:dns';

type Answer = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;
export type LookupAll = (hostname: string, options: object, answer: Answer) => void;

export function lookupsInTurn(lookup: LookupAll, width: number, deadlineMs: number): LookupAll {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    while (running < width && waiting.length > 0) waiting.shift()!();
  };
  return (hostname, options, answer) => {
    let answered = false;
    const once: Answer = (error, addresses) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      answer(error, addresses);
    };
    const timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`looking up ${hostname} timed out`);
      error.code = 'ETIMEOUT';
      once(error, []);
    }, deadlineMs);
    timer.unref();
    waiting.push(() => {
      if (answered) return; // its deadline passed while it waited: nothing to look up
      running++;
      lookup(hostname, options, (error, addresses) => {
        running--;
        next();
        once(error, addresses);
      });
    });
    next();
  };
}
