/**
 * Webhook delivery slots (src/modules/hooks/delivery-slots.ts): a host's cap and an owner's
 * cap each refuse one more delivery once reached, whatever the other; a reseller's hooks
 * have a budget of their own; giving a slot back frees it, once; what is full is listed for
 * the claim to leave out, hosts as the claim's SQL spells them.
 */
import { describe, expect, it } from 'vitest';
import { deliverySlots, hostOf } from '../../../src/modules/hooks/delivery-slots.js';

const hook = (host: string, owner: string) => ({ url: `https://${host}/hook`, owner_id: owner });

describe('deliverySlots', () => {
  it('fills an owner’s slots across hosts, and a host’s across owners', () => {
    const slots = deliverySlots({ perHost: 2, perOwner: 3 });
    const given = ['a1', 'a2', 'a3'].map((host) => slots.take(hook(`${host}.example`, 'tenant')));
    expect(slots.full(hook('a4.example', 'tenant'))).toBe(true);
    expect(slots.full(hook('a4.example', 'other'))).toBe(false);
    slots.take(hook('shared.example', 'x'));
    slots.take(hook('shared.example', 'y'));
    expect(slots.full(hook('shared.example', 'z'))).toBe(true);
    // Another port is another host.
    expect(slots.full(hook('shared.example:8443', 'z'))).toBe(false);
    given[0]!();
    given[0]!(); // given back twice counts once
    expect(slots.full(hook('a4.example', 'tenant'))).toBe(false);
    slots.take(hook('a4.example', 'tenant'));
    expect(slots.full(hook('a5.example', 'tenant'))).toBe(true);
  });

  it('gives a seller’s resellers one budget, apart from the seller’s own', () => {
    const slots = deliverySlots({ perHost: 10, perOwner: 2 });
    const reseller = (host: string, id = 'klook', seller = 'seller') => ({
      ...hook(host, seller),
      reseller_id: id,
    });
    slots.take(reseller('r1.example'));
    slots.take(reseller('r2.example'));
    expect(slots.full(reseller('r3.example'))).toBe(true);
    // Another affiliate of that seller shares it: a seller making affiliates at will would
    // otherwise take a budget per affiliate, every slot of the process in the end.
    expect(slots.full(reseller('r3.example', 'other'))).toBe(true);
    // A reseller of another seller does not.
    expect(slots.full(reseller('r3.example', 'other', 'elsewhere'))).toBe(false);
    // The seller's own hooks are not held up by its resellers'.
    expect(slots.full(hook('s1.example', 'seller'))).toBe(false);
    slots.take(hook('s1.example', 'seller'));
    slots.take(hook('s2.example', 'seller'));
    expect(slots.busy()).toEqual({ owners: ['seller'], resellers: ['seller'], hosts: [] });
  });

  it('lists the full hosts as written, lower-cased, port included', () => {
    const slots = deliverySlots({ perHost: 1, perOwner: 10 });
    slots.take(hook('Hooks.Example.com:8443', 'a'));
    expect(slots.full(hook('hooks.example.com:8443', 'b'))).toBe(true);
    expect(slots.busy().hosts).toEqual(['hooks.example.com:8443']);
    expect(hostOf('https://[2001:DB8::1]:443/x?y#z')).toBe('[2001:db8::1]:443');
    expect(hostOf('http://a.example?x=1')).toBe('a.example');
  });
});
