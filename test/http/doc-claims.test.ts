/**
 * Claims the docs make about the server's answers, checked against the server: each claim
 * quotes its sentence (which must still be in the doc, whitespace aside) and asks the
 * questions it answers. A doc reworded without the check, or a server changed under the
 * doc, fails here; both contradictions of issue 31 were of this kind (docs/guides.md said
 * the old `guides=<userId>` filter was not translated, docs/booking.md implied another
 * seller's guide or delegate was 404).
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createEvent, createGuide, delegate } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

const flat = (text: string) => text.replace(/\s+/g, ' ');
const UNKNOWN = 'f'.repeat(24);

interface Claim {
  doc: string;
  quote: string;
  check: () => Promise<void>;
}

const statusOf = (response: LightMyRequestResponse) => `${response.statusCode} ${response.body}`;

const CLAIMS: Claim[] = [
  {
    doc: 'docs/booking.md',
    quote:
      'under a seller the caller does not manage, every call is `403`, for a real id and an invented one alike',
    check: async () => {
      const guide = await createGuide(t.app, shop.seller, shop.seller.id);
      const guideManager = await delegate(t.app, shop.seller, ['ROLE_GUIDE_MANAGER']);
      const clerk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION']);
      // The guide manager's delegation: the clerk may see only its own.
      const delegations = await as(t.app, shop.seller, {
        method: 'GET',
        url: `/api/users/${shop.seller.id}/delegates`,
      });
      const delegation = delegations
        .json<{ data: { id: string; user: { id: string } }[] }>()
        .data.find((d) => d.user.id === guideManager.id)!.id;
      const others: [string, Account][] = [
        ['a stranger', await signUp(t.app)],
        ['another seller', (await openShop(t.app)).seller],
        ['a delegate without the right', clerk],
      ];
      for (const [who, account] of others) {
        for (const url of [
          `/api/sellers/${shop.seller.id}/guides/${guide.id}`,
          `/api/sellers/${shop.seller.id}/guides/${UNKNOWN}`,
          `/api/users/${shop.seller.id}/delegates/${delegation}`,
          `/api/users/${shop.seller.id}/delegates/${UNKNOWN}`,
        ]) {
          const response = await as(t.app, account, { method: 'GET', url });
          expect(statusOf(response), `${who}: ${url}`).toMatch(/^403 /);
        }
      }
    },
  },
  {
    doc: 'docs/booking.md',
    quote: "under the caller's own seller, another seller's guide is `404`, as an unknown one",
    check: async () => {
      const other = await openShop(t.app);
      const theirs = await createGuide(t.app, other.seller, other.seller.id);
      for (const id of [theirs.id, UNKNOWN]) {
        const url = `/api/sellers/${shop.seller.id}/guides/${id}`;
        const response = await as(t.app, shop.seller, { method: 'GET', url });
        expect(statusOf(response), url).toMatch(/^404 /);
      }
    },
  },
  {
    doc: 'docs/guides.md',
    quote:
      "The `guides` filter of `GET /api/events` is translated too: an older client's `guides=<userId>` finds the events of the live guide profiles linked to that user at the sellers whose events the caller sees",
    check: async () => {
      const old = { 'x-api-version': '2018-01-01' };
      const guideUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Gil Guide');
      const event = await createEvent(
        t.app,
        shop.seller,
        shop.experienceId,
        '2030-07-01T09:00',
        { guides: [guideUser.id] },
        old,
      );
      const found = await as(t.app, shop.seller, {
        method: 'GET',
        url: `/api/events?guides=${guideUser.id}`,
        headers: old,
      });
      expect(found.json<{ data: { id: string }[] }>().data.map((e) => e.id)).toEqual([event.id]);
    },
  },
];

describe('what the docs say the server answers', () => {
  it.each(CLAIMS.map((claim) => [`${claim.doc}: ${claim.quote}`, claim] as const))(
    '%s',
    async (_name, claim) => {
      expect(flat(fs.readFileSync(claim.doc, 'utf8')), 'the doc no longer says so').toContain(
        flat(claim.quote),
      );
      await claim.check();
    },
  );
});
