/**
 * Webhook delivery slots (src/modules/hooks/delivery-slots.ts): a host's cap and an owner's
 * cap each refuse one more delivery once reached, whatever the other; giving a slot back
 * frees it, once.
 */
import { describe, expect, it } from 'vitest';
import { deliverySlots } from '../../../src/modules/hooks/delivery-slots.js';

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
});
