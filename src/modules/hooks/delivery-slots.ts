/**
 * Webhook deliveries in flight, counted per receiving host and per budget against their
 * caps (webhook.dispatcher.ts). A budget is the hook owner's, or for a reseller's hook that
 * of all the resellers of its seller together: the owner's cap keeps one tenant from every
 * slot (hosts cost nothing to make: a wildcard name, another port), and resellers' hooks are
 * the seller's rows but not its load, so they share a budget only with each other (twenty
 * stalling reseller hooks held the seller's eight slots). One budget for all of a seller's
 * resellers, not one each: a seller makes affiliates at will, and eight of them with a
 * budget each took every slot of the process again (the session's diff review).
 *
 * The claim leaves out what is full (`busy`, deliveries.repository.ts), so a host is what
 * its SQL can compute from the stored URL too: the authority as written, lower-cased.
 */

/** What the counts need of a delivery's hook. */
interface Hooked {
  url: string;
  owner_id: string;
  reseller_id?: string | null;
}

/** The full budgets and hosts, as the claim's SQL leaves them out. */
export interface Busy {
  /** Sellers whose own hooks' budget is full. */
  owners: string[];
  /** Sellers whose resellers' hooks' budget is full. */
  resellers: string[];
  hosts: string[];
}

/**
 * A URL's host as the caps count it: `host[:port]` as written, lower-cased. The claim
 * computes the same in SQL from this pattern (`substring(url from …)`), so both agree.
 * Another spelling of one host (`:443` written out, an IDN in Unicode) counts apart: it
 * buys a caller nothing a wildcard name does not.
 */
export const AUTHORITY_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)';
const AUTHORITY = new RegExp(AUTHORITY_PATTERN);
export const hostOf = (url: string): string => (AUTHORITY.exec(url)?.[1] ?? '').toLowerCase();

export function deliverySlots(caps: { perHost: number; perOwner: number }) {
  const counts = new Map<string, number>();
  const keysOf = (hook: Hooked) => [
    `host ${hostOf(hook.url)}`,
    hook.reseller_id ? `resellers ${hook.owner_id}` : `owner ${hook.owner_id}`,
  ];
  const capOf = (key: string) => (key.startsWith('host ') ? caps.perHost : caps.perOwner);
  const add = (key: string, by: 1 | -1) => {
    const now = (counts.get(key) ?? 0) + by;
    if (now <= 0) counts.delete(key);
    else counts.set(key, now);
  };
  return {
    /** Whether one more delivery to this hook would pass its host's or its budget's cap. */
    full: (hook: Hooked): boolean =>
      keysOf(hook).some((key) => (counts.get(key) ?? 0) >= capOf(key)),
    /** The budgets and hosts at their caps. */
    busy(): Busy {
      const busy: Busy = { owners: [], resellers: [], hosts: [] };
      for (const [key, n] of counts) {
        if (n < capOf(key)) continue;
        const [kind, id] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
        busy[kind === 'host' ? 'hosts' : kind === 'resellers' ? 'resellers' : 'owners'].push(id);
      }
      return busy;
    },
    /** Counts a delivery to this hook in flight; the function it returns counts it out. */
    take(hook: Hooked): () => void {
      const keys = keysOf(hook);
      for (const key of keys) add(key, 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        for (const key of keys) add(key, -1);
      };
    },
  };
}
