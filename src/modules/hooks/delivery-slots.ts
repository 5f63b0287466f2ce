/**
 * Webhook deliveries in flight, counted per receiving host and per hook owner against their
 * caps (webhook.dispatcher.ts). The owner's cap keeps one tenant from every slot: hosts cost
 * nothing to make (a wildcard name, another port).
 */

/** What the counts need of a delivery's hook. */
interface Hooked {
  url: string;
  owner_id: string;
}

export function deliverySlots(caps: { perHost: number; perOwner: number }) {
  const counts = new Map<string, number>();
  const keysOf = (hook: Hooked) => [`host ${new URL(hook.url).host}`, `owner ${hook.owner_id}`];
  const capOf = (key: string) => (key.startsWith('host ') ? caps.perHost : caps.perOwner);
  const add = (key: string, by: 1 | -1) => {
    const now = (counts.get(key) ?? 0) + by;
    if (now <= 0) counts.delete(key);
    else counts.set(key, now);
  };
  return {
    /** Whether one more delivery to this hook would pass its host's or its owner's cap. */
    full: (hook: Hooked): boolean =>
      keysOf(hook).some((key) => (counts.get(key) ?? 0) >= capOf(key)),
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
