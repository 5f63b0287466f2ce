/**
 * Fair shares of the dispatcher's slots (src/modules/hooks/delivery-shares.ts): budgets
 * that hold a slot share three quarters of them, the last quarter starts a budget's first
 * delivery and lends up to 4 slots to a budget holding no shared slot while more than 8
 * stay free, and once the shared part is taken every holding budget the reserve would not
 * lend to is listed for the claim to leave out; what each budget holds is keyed as the
 * claim's SQL spells budgets.
 */
import { describe, expect, it } from 'vitest';
import {
  budgetOf,
  deliveryShares,
  reserveOf,
  type Budgeted,
} from '../../../src/modules/hooks/delivery-shares.js';

const owner = (id: string) => ({ owner_id: id, reseller_id: null });
const resellers = (sellerId: string) => ({ owner_id: sellerId, reseller_id: 'r1' });
const none = { owners: [], resellers: [], hosts: [] };
/** In flight in a shared slot. */
const shared = (hook: Budgeted) => ({ hook, reserve: false });

describe('deliveryShares', () => {
  it('keeps a quarter of the slots for budgets that hold none', () => {
    expect(reserveOf(64)).toBe(16);
    expect(reserveOf(1)).toBe(1);
    // Eight budgets holding six each: the shared 48 are taken.
    const inFlight = Array.from({ length: 48 }, (_, i) => shared(owner(`s${i % 8}`)));
    const shares = deliveryShares(64, inFlight);
    expect(shares.allows(owner('s0'))).toBe(false);
    expect(shares.allows(owner('other'))).toBe(true);
    expect(shares.take(owner('other'))).toBe(true); // a reserve slot
    for (let i = 1; i < 16; i++) shares.take(owner(`new${i}`));
    expect(shares.allows(owner('late'))).toBe(false); // all 64 in flight
  });

  it('lends reserve slots to a budget holding no shared slot, 4 each, keeping 8 free', () => {
    const inFlight = Array.from({ length: 48 }, (_, i) => shared(owner(`s${i % 6}`)));
    const shares = deliveryShares(64, inFlight);
    // Its first, then three more: four in all.
    for (let n = 0; n < 4; n++) {
      expect(shares.allows(owner('b'))).toBe(true);
      expect(shares.take(owner('b'))).toBe(true);
    }
    expect(shares.allows(owner('b'))).toBe(false);
    // Its resellers are another budget; the stalling budgets get none of it.
    expect(shares.allows(resellers('b'))).toBe(true);
    expect(shares.allows(owner('s0'))).toBe(false);
    for (let n = 0; n < 4; n++) shares.take(owner('c'));
    // 56 in flight: the last 8 start first deliveries only.
    expect(shares.allows(owner('d'))).toBe(true);
    shares.take(owner('d'));
    expect(shares.allows(owner('d'))).toBe(false);
    for (let i = 0; i < 7; i++) {
      expect(shares.allows(owner(`new${i}`))).toBe(true);
      shares.take(owner(`new${i}`));
    }
    expect(shares.allows(owner('late'))).toBe(false);
  });

  it('lends nothing to a budget holding a shared slot, or once 8 reserve slots are left', () => {
    const inFlight = [
      ...Array.from({ length: 47 }, (_, i) => shared(owner(`s${i % 6}`))),
      shared(owner('b')),
    ];
    const shares = deliveryShares(64, inFlight);
    expect(shares.allows(owner('b'))).toBe(false);
    const kept = deliveryShares(64, [
      ...inFlight,
      ...Array.from({ length: 8 }, (_, i) => ({ hook: owner(`f${i}`), reserve: true })),
    ]);
    expect(kept.allows(owner('f0'))).toBe(false); // 56 in flight: 8 left
    expect(kept.allows(owner('g'))).toBe(true);
    expect(kept.closing(none).owners).toContain('f0');
  });

  it('lets holding budgets share the rest, and lists none as closed meanwhile', () => {
    const shares = deliveryShares(64, [owner('a'), owner('a'), resellers('a')].map(shared));
    expect(shares.allows(owner('a'))).toBe(true);
    expect(shares.take(owner('a'))).toBe(false); // a shared slot
    expect(shares.held()).toEqual({ [budgetOf(owner('a'))]: 3, 'resellers a': 1 });
    expect(shares.closing({ ...none, hosts: ['h:1'] })).toEqual({ ...none, hosts: ['h:1'] });
  });

  it('closes every holding budget the reserve lends nothing, with the caps’ own', () => {
    const inFlight = [
      ...Array.from({ length: 47 }, () => shared(owner('a'))),
      shared(resellers('b')),
      { hook: owner('d'), reserve: true },
    ];
    const closed = deliveryShares(64, inFlight).closing({
      owners: ['a', 'c'],
      resellers: [],
      hosts: ['h:1'],
    });
    // `d` holds a reserve slot only: the reserve lends it more, so it is read.
    expect(closed).toEqual({ owners: ['a', 'c'], resellers: ['b'], hosts: ['h:1'] });
  });

  it('lends nothing from a small reserve: its part of it is the first delivery', () => {
    const inFlight = Array.from({ length: 6 }, (_, i) => shared(owner(`s${i}`)));
    const shares = deliveryShares(8, inFlight); // a reserve of 2
    expect(shares.take(owner('d'))).toBe(true);
    expect(shares.allows(owner('d'))).toBe(false);
    expect(shares.allows(owner('e'))).toBe(true);
  });
});
