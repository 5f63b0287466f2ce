/**
 * No response tells a caller anything about a user it could not already read, existence
 * included (issue 10, item 3). A victim (a customer of another seller, that seller's
 * delegate and guide) is probed by a hostile seller, its staff and a customer, through every
 * endpoint that returns a user, a delegate or an order. Each probe is sent twice, once naming
 * the victim and once naming a user that does not exist: the answers must be the same (once
 * the name is swapped and generated ids and times are masked), and no field of the victim
 * (id, name, email) may appear in either.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  uniqueEmail,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createGuide, delegate, makeDelegate } from '../helpers/guides.js';
import { invitationEmail } from '../helpers/invitations.js';

let t: TestApp;
let victim: Account;
let home: Shop;
let hostile: Shop;
let clerk: Account;
let customer: Account;
const VICTIM_NAME = 'Victoria Vulnerable';

beforeAll(async () => {
  t = await createTestApp();
  home = await openShop(t.app);
  victim = await signUp(t.app, { name: VICTIM_NAME });
  // The victim is a customer, a delegate and a guide of its own seller: never of `hostile`.
  expect((await book(t.app, victim, { items: [item(home.experienceId)] })).statusCode).toBe(201);
  await makeDelegate(t.app, home.seller, victim, ['ROLE_GUIDE']);
  await createGuide(t.app, home.seller, home.seller.id, { name: 'V', user: { id: victim.id } });
  hostile = await openShop(t.app);
  clerk = await delegate(t.app, hostile.seller, ['ROLE_SELLER_ADMIN', 'ROLE_RESERVATION']);
  customer = await signUp(t.app, { name: 'Curious Customer' });
  await book(t.app, customer, { items: [item(hostile.experienceId)] });
});
afterAll(async () => t.close());

interface Target {
  id: string;
  email: string;
}
/** Nobody: an id and an address no account has (the same all run long, like the victim's). */
const GHOST: Target = { id: 'ffffffff0123456789abcdef', email: uniqueEmail('ghost') };

/** The probes: a request naming a target, as one of the hostile callers. */
const probes: ((target: Target) => {
  account: Account;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: object;
  headers?: Record<string, string>;
})[] = [
  (v) => ({ account: hostile.seller, method: 'GET', url: `/api/users/${v.id}` }),
  (v) => ({ account: hostile.seller, method: 'GET', url: `/api/users/${v.id}?private=true` }),
  (v) => ({ account: customer, method: 'GET', url: `/api/users/${v.id}/apiKey` }),
  (v) => ({
    account: customer,
    method: 'POST',
    url: `/api/users/${v.id}/meta`,
    payload: { 'a/b/c': 1 },
  }),
  (v) => ({ account: customer, method: 'DELETE', url: `/api/users/${v.id}/meta/a/b/c` }),
  (v) => ({
    account: hostile.seller,
    method: 'POST',
    url: `/api/users/${hostile.seller.id}/delegates`,
    payload: { user: { id: v.id }, roles: ['ROLE_GUIDE'] },
  }),
  (v) => ({
    account: clerk,
    method: 'POST',
    url: `/api/users/${hostile.seller.id}/delegates`,
    payload: { email: v.email, roles: ['ROLE_RESERVATION'] },
  }),
  (v) => ({
    account: hostile.seller,
    method: 'GET',
    url: `/api/users/${hostile.seller.id}/delegates?user=${v.id}`,
  }),
  (v) => ({ account: hostile.seller, method: 'GET', url: `/api/users/${v.id}/delegates` }),
  (v) => ({
    account: hostile.seller,
    method: 'POST',
    url: '/api/orders',
    payload: { customer: { id: v.id }, customerName: 'X', items: [item(hostile.experienceId)] },
  }),
  (v) => ({
    account: clerk,
    method: 'POST',
    url: '/api/orders',
    payload: {
      customer: { id: v.id },
      customerName: 'X',
      customerEmail: null,
      items: [item(hostile.experienceId)],
    },
  }),
  (v) => ({
    account: customer,
    method: 'POST',
    url: '/api/orders',
    payload: { customer: { id: v.id }, items: [item(hostile.experienceId)] },
  }),
  (v) => ({ account: hostile.seller, method: 'GET', url: `/api/orders?customer=${v.id}` }),
  (v) => ({
    account: hostile.seller,
    method: 'GET',
    url: `/api/orders?customerEmail=${encodeURIComponent(v.email)}`,
  }),
  (v) => ({
    account: hostile.seller,
    method: 'POST',
    url: `/api/sellers/${hostile.seller.id}/guides`,
    payload: { name: 'G', user: { id: v.id } },
  }),
  (v) => ({
    account: hostile.seller,
    method: 'GET',
    url: `/api/sellers/${hostile.seller.id}/guides?user=${v.id}`,
  }),
  (v) => ({
    account: hostile.seller,
    method: 'POST',
    url: '/api/events',
    payload: {
      experience: { id: hostile.experienceId },
      start: '2030-06-02T09:00',
      guides: [v.id],
    },
    headers: { 'x-api-version': '2018-01-01' },
  }),
];

/** A response with the target's id and email swapped for tokens, generated ids and times masked. */
function normalise(body: string, target: Target): string {
  return body
    .split(target.id)
    .join('<target-id>')
    .split(target.email)
    .join('<target-email>')
    .split(target.email.toLowerCase())
    .join('<target-email>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<request-id>')
    .replace(/"[0-9a-f]{24}"/g, '"<id>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, '<time>');
}

describe('nothing about a user the caller may not read', () => {
  it('answers probes naming the victim exactly as probes naming nobody, and leaks no field of it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: probes.length - 1 }), async (index) => {
        const send = async (target: Target) => {
          const probe = probes[index]!(target);
          return as(t.app, probe.account, {
            method: probe.method,
            url: probe.url,
            ...(probe.payload ? { payload: probe.payload } : {}),
            ...(probe.headers ? { headers: probe.headers } : {}),
          });
        };
        const target = { id: victim.id, email: victim.email };
        const other = GHOST;
        const [toVictim, toGhost] = [await send(target), await send(other)];
        const where = `probe ${index}: ${toVictim.statusCode} ${toVictim.body.slice(0, 300)}`;
        expect(toVictim.statusCode, where).toBe(toGhost.statusCode);
        expect(normalise(toVictim.body, target), where).toBe(normalise(toGhost.body, other));
        // Nothing of the victim but what the probe itself said (an email it invited).
        const said = JSON.stringify(probes[index]!(target));
        for (const secret of [VICTIM_NAME, victim.email, victim.id].filter(
          (s) => !said.includes(s),
        )) {
          expect(toVictim.body, where).not.toContain(secret);
          expect(JSON.stringify(toVictim.headers), where).not.toContain(secret);
        }
      }),
      { numRuns: 80, seed: 1105 },
    );
  });

  it('never puts an order in the victim’s list, nor mail in its inbox but invitations', async () => {
    const orders = await as(t.app, victim, { method: 'GET', url: '/api/orders?limit=100' });
    expect(orders.json().data.map((o: { seller: { id: string } }) => o.seller.id)).toEqual([
      home.seller.id,
    ]);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select('kind')
      .where('recipient', '=', victim.email)
      .execute();
    // Its own booking's confirmation; and invitations, the one email anyone who may manage a
    // seller's delegates can send to any address: it is how the address proves it wants in
    // (docs/security.md, "Invitations"), and it says nothing of the victim.
    expect(mail.filter((m) => m.kind !== 'delegate_invitation')).toEqual([
      { kind: 'order_confirmation' },
    ]);
  });
});

describe('invitations by email', () => {
  it('grant nothing until accepted with the token of their email, by whoever has an account with the address or not', async () => {
    const existing = await signUp(t.app);
    const email = uniqueEmail('future');
    const ids: string[] = [];
    for (const address of [existing.email, email]) {
      const invited = await as(t.app, hostile.seller, {
        method: 'POST',
        url: `/api/users/${hostile.seller.id}/delegates`,
        payload: { email: address, roles: ['ROLE_RESERVATION'] },
      });
      expect(invited.statusCode).toBe(201);
      expect(invited.json().user).toEqual({ id: null, name: null, email: address.toLowerCase() });
      ids.push(invited.json().id as string);
    }
    const newcomer = await signUp(t.app, { email });
    const sellersOrders = (account: Account) =>
      as(t.app, account, { method: 'GET', url: `/api/orders?seller=${hostile.seller.id}` });
    for (const [account, id] of [
      [existing, ids[0]!],
      [newcomer, ids[1]!],
    ] as const) {
      expect((await sellersOrders(account)).json().data).toEqual([]);
      const { token } = await invitationEmail(t.app, id);
      const accepted = await as(t.app, account, {
        method: 'POST',
        url: `/api/users/${hostile.seller.id}/delegates/${id}/accept`,
        payload: { token },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await sellersOrders(account)).json().data.length).toBeGreaterThan(0);
    }
  });

  it('refuses anyone without the token (the address’s account too), with the same 404 as no invitation', async () => {
    const invitee = await signUp(t.app);
    const invited = await as(t.app, hostile.seller, {
      method: 'POST',
      url: `/api/users/${hostile.seller.id}/delegates`,
      payload: { email: invitee.email, roles: ['ROLE_GUIDE'] },
    });
    const { token } = await invitationEmail(t.app, invited.json().id);
    const accept = (account: Account, id: string, given: string) =>
      as(t.app, account, {
        method: 'POST',
        url: `/api/users/${hostile.seller.id}/delegates/${id}/accept`,
        payload: { token: given },
      });
    const wrong = 'A'.repeat(43);
    expectProblem(await accept(customer, invited.json().id, wrong), 404, 'not_found');
    expectProblem(await accept(invitee, invited.json().id, wrong), 404, 'not_found');
    expectProblem(await accept(invitee, 'ffffffff0123456789abcdef', token), 404, 'not_found');
    expect((await accept(invitee, invited.json().id, token)).json().user.id).toBe(invitee.id);
  });
});
