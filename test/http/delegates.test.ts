/**
 * Delegates through HTTP: who may manage them, the two ways to name the user, roles, and an
 * Idempotency-Key that is one seller's only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import { invitationEmail } from '../helpers/invitations.js';

let t: TestApp;
let seller: Account;
beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
});
afterAll(async () => t.close());

const add = (account: Account, sellerId: string, payload: Record<string, unknown>) =>
  as(t.app, account, { method: 'POST', url: `/api/users/${sellerId}/delegates`, payload });

describe('delegates', () => {
  it('adds a user by email or by id, lists, reads and removes it', async () => {
    const ann = await signUp(t.app, { name: 'Ann Clerk' });
    const bob = await signUp(t.app, { name: 'Bob Booker' });
    const byEmail = await add(seller, seller.id, {
      email: ann.email.toUpperCase(),
      roles: ['ROLE_RESERVATION'],
    });
    expect(byEmail.statusCode).toBe(201);
    // An invitation by email says nothing of which account has the address (docs/security.md).
    expect(byEmail.json()).toMatchObject({
      object: 'delegate',
      seller: { id: seller.id },
      user: { id: null, name: null, email: ann.email.toLowerCase() },
      roles: ['ROLE_RESERVATION'],
    });
    // Once Ann accepts with the token of the invitation email, the seller sees who she is.
    const { token } = await invitationEmail(t.app, byEmail.json().id);
    const accepted = await as(t.app, ann, {
      method: 'POST',
      url: `/api/users/${seller.id}/delegates/${byEmail.json().id}/accept`,
      payload: { token },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user).toEqual({ id: ann.id, name: 'Ann Clerk', email: ann.email });
    // By id: Bob booked with the seller, so the seller knows him and may name him.
    const experience = await as(t.app, seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Bay Tour',
        price: 10,
        priceType: 'person',
        currency: 'USD',
        duration: 60,
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] },
        ],
      },
    });
    const booked = await as(t.app, bob, {
      method: 'POST',
      url: '/api/orders',
      payload: {
        items: [
          {
            experience: { id: experience.json().id },
            arrival: '2030-06-01',
            arrivalTime: 900,
            quantity: 1,
          },
        ],
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const byId = await add(seller, seller.id, {
      user: { id: bob.id },
      roles: ['ROLE_CURATOR', 'ROLE_GUIDE'],
    });
    expect(byId.statusCode).toBe(201);
    expect(byId.json().user).toEqual({ id: bob.id, name: 'Bob Booker', email: bob.email });

    const list = await as(t.app, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/delegates?sort=id`,
    });
    expect(
      list
        .json()
        .data.map((d: { user: { id: string } }) => d.user.id)
        .sort(),
    ).toEqual([ann.id, bob.id].sort());
    expect(list.json().paging).toEqual({ next: null });

    const id = byEmail.json().id;
    const one = await as(t.app, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/delegates/${id}`,
    });
    expect(one.json()).toEqual(accepted.json());
    // The delegate itself may read its own delegation.
    expect(
      (await as(t.app, ann, { method: 'GET', url: `/api/users/${seller.id}/delegates/${id}` }))
        .statusCode,
    ).toBe(200);

    const removed = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/delegates/${id}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(
      await as(t.app, seller, { method: 'GET', url: `/api/users/${seller.id}/delegates/${id}` }),
      404,
      'not_found',
    );
    expectProblem(
      await as(t.app, seller, { method: 'DELETE', url: `/api/users/${seller.id}/delegates/${id}` }),
      404,
      'not_found',
    );
  });

  it('replaces the roles when the user is added again (200)', async () => {
    const ann = await signUp(t.app);
    const first = await add(seller, seller.id, { email: ann.email, roles: ['ROLE_GUIDE'] });
    const again = await add(seller, seller.id, {
      email: ann.email,
      roles: ['ROLE_RESERVATION', 'ROLE_GUIDE_MANAGER'],
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      id: first.json().id,
      roles: ['ROLE_RESERVATION', 'ROLE_GUIDE_MANAGER'],
    });
  });

  it('does not replay one seller’s invitation for another under the same Idempotency-Key', async () => {
    const other = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const admin = await createAdmin(t);
    const invite = (sellerId: string) =>
      as(t.app, admin, {
        method: 'POST',
        url: `/api/users/${sellerId}/delegates`,
        headers: { 'idempotency-key': 'invite-guide' },
        payload: { email: 'guide.both@example.com', roles: ['ROLE_GUIDE'] },
      });
    expect((await invite(seller.id)).statusCode).toBe(201);
    expectProblem(await invite(other.id), 422, 'idempotency_key_reused');
    const listed = await as(t.app, other, {
      method: 'GET',
      url: `/api/users/${other.id}/delegates`,
    });
    expect(listed.json().data).toEqual([]);
  });

  it('lets the seller, its seller-admins and admins manage delegates; nobody else', async () => {
    const boss = await delegate(t.app, seller, ['ROLE_SELLER_ADMIN']);
    const clerk = await delegate(t.app, seller, ['ROLE_RESERVATION']);
    const newcomer = await signUp(t.app);
    expect(
      (await add(boss, seller.id, { email: newcomer.email, roles: ['ROLE_GUIDE'] })).statusCode,
    ).toBe(201);
    const admin = await createAdmin(t);
    expect(
      (await as(t.app, admin, { method: 'GET', url: `/api/users/${seller.id}/delegates` }))
        .statusCode,
    ).toBe(200);
    expectProblem(
      await add(clerk, seller.id, { email: newcomer.email, roles: ['ROLE_SELLER_ADMIN'] }),
      403,
      'forbidden',
    );
    // A list the caller may not see is empty, never an error.
    const hidden = await as(t.app, clerk, {
      method: 'GET',
      url: `/api/users/${seller.id}/delegates`,
    });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json().data).toEqual([]);
    const stranger = await signUp(t.app);
    expectProblem(
      await add(stranger, seller.id, { email: stranger.email, roles: ['ROLE_SELLER_ADMIN'] }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/api/users/${seller.id}/delegates` }),
      401,
      'authentication_required',
    );
  });

  it('refuses bad requests with 4xx and adds nothing', async () => {
    const ann = await signUp(t.app);
    const countOf = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('delegates')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countOf();
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ roles: ['ROLE_GUIDE'] }, 400, 'validation_failed', 'email'],
      [
        { email: ann.email, user: { id: ann.id }, roles: ['ROLE_GUIDE'] },
        400,
        'validation_failed',
        'email',
      ],
      [{ email: ann.email, roles: [] }, 400, 'validation_failed', 'roles'],
      [{ email: ann.email, roles: ['ROLE_KING'] }, 400, 'validation_failed', 'roles.0'],
      [
        { email: ann.email, roles: ['ROLE_GUIDE', 'ROLE_GUIDE'] },
        400,
        'validation_failed',
        'roles',
      ],
      [{ email: ann.email, roles: ['ROLE_GUIDE'], extra: 1 }, 400, 'validation_failed', 'extra'],
      [{ user: { id: '0123456789abcdef01234567' }, roles: ['ROLE_GUIDE'] }, 404, 'not_found'],
      // A user the seller does not know: the same 404 as an unknown id.
      [{ user: { id: ann.id }, roles: ['ROLE_GUIDE'] }, 404, 'not_found'],
      [{ user: { id: seller.id }, roles: ['ROLE_GUIDE'] }, 400, 'validation_failed', 'user.id'],
    ];
    for (const [payload, status, code, field] of cases) {
      const body = expectProblem(await add(seller, seller.id, payload), status, code);
      if (field) expect(body.errors?.[0]?.name, JSON.stringify(payload)).toBe(field);
    }
    // Not a seller at all: no such seller.
    expectProblem(
      await add(ann, ann.id, { email: seller.email, roles: ['ROLE_GUIDE'] }),
      404,
      'not_found',
    );
    expect(await countOf()).toBe(before);
  });
});

describe('the delegates list speaks the query language', () => {
  it('pages, filters and refuses what it does not know', async () => {
    const shop = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const staff = [
      await delegate(t.app, shop, ['ROLE_CURATOR']),
      await delegate(t.app, shop, ['ROLE_CURATOR']),
      await delegate(t.app, shop, ['ROLE_CURATOR']),
    ];
    const list = (query: string) =>
      as(t.app, shop, { method: 'GET', url: `/api/users/${shop.id}/delegates?${query}` });

    const first = await list('limit=2');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toHaveLength(2);
    const next = first.json().paging.next as string;
    expect(next).toMatch(/^\/api\/users\/[0-9a-f]{24}\/delegates\?id%5Blt%5D=|id\[lt\]=/);
    const second = (await as(t.app, shop, { method: 'GET', url: next })).json();
    const seen = [...first.json().data, ...second.data].map(
      (d: { user: { id: string } }) => d.user.id,
    );
    expect(seen.sort()).toEqual(staff.map((u) => u.id).sort());
    expect(second.paging.next).toBeNull();

    const one = await list(`user=${staff[1]!.id}&count=true`);
    expect(one.json().data.map((d: { user: { id: string } }) => d.user.id)).toEqual([staff[1]!.id]);
    expect(one.json().paging.total).toBe(1);

    expectProblem(await list('limit=0'), 400, 'invalid_paging');
    expectProblem(await list('bogus=1'), 400, 'unknown_field');
    expectProblem(await list('sort=roles'), 400, 'invalid_sort');
  });
});

describe('what delegate roles allow', () => {
  it('shows the seller’s events to its staff and orders only to reservation roles', async () => {
    const clerk = await delegate(t.app, seller, ['ROLE_RESERVATION']);
    const curator = await delegate(t.app, seller, ['ROLE_CURATOR']);
    const experience = await as(t.app, curator, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        seller: { id: seller.id },
        name: 'Curated',
        price: 10,
        priceType: 'person',
        currency: 'USD',
        duration: 60,
        visible: false,
        schedules: [{ type: 'available', repeat: 'weekly', days: [1], times: [1000] }],
      },
    });
    expect(experience.statusCode).toBe(201);
    const id = experience.json().id;
    // A delegate that is not a seller itself must say which seller it creates for.
    const unnamed = await as(t.app, curator, {
      method: 'POST',
      url: '/api/experiences',
      payload: { name: 'Whose?', price: 1, priceType: 'person', currency: 'USD', duration: 60 },
    });
    expect(expectProblem(unnamed, 400, 'validation_failed').errors?.[0]).toMatchObject({
      name: 'seller.id',
    });
    // Hidden experiences: visible to all the seller's staff (reservation staff book them),
    // changed only by curators and seller-admins.
    for (const staff of [curator, clerk]) {
      expect(
        (await as(t.app, staff, { method: 'GET', url: `/api/experiences/${id}` })).statusCode,
      ).toBe(200);
    }
    expectProblem(
      await as(t.app, clerk, {
        method: 'PUT',
        url: `/api/experiences/${id}`,
        payload: { price: 1 },
      }),
      403,
      'forbidden',
    );
    const outsider = await signUp(t.app);
    expectProblem(
      await as(t.app, outsider, { method: 'GET', url: `/api/experiences/${id}` }),
      404,
      'not_found',
    );
    const event = await as(t.app, curator, {
      method: 'POST',
      url: '/api/events',
      payload: { experience: { id }, start: '2030-06-03T10:00:00Z', max: 4 },
    });
    expect(event.statusCode).toBe(201);
    for (const staff of [clerk, curator]) {
      const listed = await as(t.app, staff, { method: 'GET', url: `/api/events?experience=${id}` });
      expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([event.json().id]);
    }
    expect(
      (await as(t.app, clerk, { method: 'GET', url: `/api/events/${event.json().id}` })).statusCode,
    ).toBe(200);
    // Removing the delegation removes the access at once.
    const delegates = (
      await as(t.app, seller, { method: 'GET', url: `/api/users/${seller.id}/delegates` })
    ).json().data;
    const curatorDelegation = delegates.find(
      (d: { user: { id: string } }) => d.user.id === curator.id,
    );
    await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/delegates/${curatorDelegation.id}`,
    });
    expectProblem(
      await as(t.app, curator, { method: 'GET', url: `/api/experiences/${id}` }),
      404,
      'not_found',
    );
    expect(
      (await as(t.app, curator, { method: 'GET', url: `/api/events?experience=${id}` })).json()
        .data,
    ).toEqual([]);
  });
});
