/**
 * A hook URL's creation-time name check (`checkResolves`, destination.ts) held at a point the
 * test chooses, so that something can happen while a creation waits on a slow name server:
 * a test file mocks destination.js with `withHeldLookups`, and a URL whose path contains
 * `/held` waits in its check until the test releases it.
 */
import type * as Destination from '../../src/modules/hooks/destination.js';

interface Held {
  reached: () => void;
  released: Promise<void>;
}
let held: Held | undefined;

/** The next held lookup: `reached` once a creation waits in it, `release` lets it go on. */
export function holdLookup(): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  held = { reached, released };
  return { reached: reachedPromise, release };
}

/** destination.js with its `checkResolves` holding URLs under `/held` (for `vi.mock`). */
export function withHeldLookups(real: typeof Destination): typeof Destination {
  return {
    ...real,
    checkResolves: async (raw, env) => {
      const current = held;
      if (current && new URL(raw).pathname.startsWith('/held')) {
        held = undefined;
        current.reached();
        await current.released;
      }
      return real.checkResolves(raw, env);
    },
  };
}
