/**
 * Fair shares of the dispatcher's slots (src/modules/hooks/delivery-shares.ts): budgets
 * that hold a slot share three quarters of them, the last quarter starts only a budget's
 * first delivery, and once the shared part is taken every holding budget is listed for the
 * claim to leave out; what each budget holds is keyed as the claim's SQL spells budgets.
 */
import { describe, expect, it } from 'vitest';
import { budgetOf, deliveryShares, reserveOf } from '../../../src/modules/hooks/delivery-shares.js';

const owner = (id: string) => ({ owner_id: id, reseller_id: null });
const resellers = (sellerId: string) => ({ owner_id: sellerId, reseller_id: 'r1' });
const none = { owners: [], resellers: [], hosts: [] };

describe('deliveryShares', () => {
  it('keeps a quarter of the slots for budgets that hold none', () => {
    expect(reserveOf(64)).toBe(16);
    expect(reserveOf(1)).toBe(1);
    // Eight budgets holding six each: the shared 48 are taken.
    const inFlight = Array.from({ length: 48 }, (_, i) => owner(`s${i % 8}`));
    const shares = deliveryShares(64, inFlight);
    expect(shares.allows(owner('s0'))).toBe(false);
    expect(shares.allows(owner('other'))).toBe(true);
    shares.take(owner('other'));
    // Its first, not its second.
    expect(shares.allows(owner('other'))).toBe(false);
    expect(shares.allows(resellers('other'))).toBe(true);
    for (let i = 1; i < 16; i++) shares.take(owner(`new${i}`));
    expect(shares.allows(owner('late'))).toBe(false); // all 64 in flight
  });

  it('lets holding budgets share the rest, and lists none as closed meanwhile', () => {
    const shares = deliveryShares(64, [owner('a'), owner('a'), resellers('a')]);
    expect(shares.allows(owner('a'))).toBe(true);
    expect(shares.held()).toEqual({ [budgetOf(owner('a'))]: 2, 'resellers a': 1 });
    expect(shares.closing({ ...none, hosts: ['h:1'] })).toEqual({ ...none, hosts: ['h:1'] });
  });

  it('closes every holding budget once the shared slots are taken, with the caps’ own', () => {
    const inFlight = [...Array.from({ length: 47 }, () => owner('a')), resellers('b')];
    const closed = deliveryShares(64, inFlight).closing({
      owners: ['a', 'c'],
      resellers: [],
      hosts: ['h:1'],
    });
    expect(closed).toEqual({ owners: ['a', 'c'], resellers: ['b'], hosts: ['h:1'] });
  });
});
