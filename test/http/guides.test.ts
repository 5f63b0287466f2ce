/**
 * Guide profiles through HTTP (DESIGN.md section 6, Guide and Schedule): CRUD under
 * /api/sellers/{id}/guides, who may manage them, validation (400 naming the field, nothing
 * changed), schedules, the list with the query language, and deletion (soft: gone from the
 * API and from future events, kept on past ones).
 */
import { sql } from 'kysely';
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
import { ANNOUNCED_TOGETHER, LEAVE_PAGE } from '../../src/modules/events/assignment-leave.js';
import { openShop, type Shop } from '../helpers/booking.js';
import {
  ALWAYS,
  DAYTIME,
  assign,
  createEvent,
  createGuide,
  delegate,
  makeDelegate,
  guideRequest,
  idsOf,
  readEvent,
  type Guide,
  guideIdsOf,
} from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let seller: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  seller = shop.seller;
});
afterAll(async () => t.close());

const UNKNOWN = '0123456789abcdef01234567';
const req = (
  account: Account | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => guideRequest(t.app, account, method, url, payload);

const guideRow = (id: string) =>
  t.database.db.selectFrom('guides').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const guideCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('guides')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('guide profiles', () => {
  it('creates, reads, changes and deletes a guide; its id is its own', async () => {
    const linked = await delegate(t.app, seller, ['ROLE_GUIDE'], 'Linked User');
    const created = await req(seller, 'POST', `/${seller.id}/guides`, {
      name: '  Gina Guide  ',
      email: 'gina@example.com',
      phone: '+33 6 12 34 56 78',
      bio: 'Paddles since 1999.',
      picture: 'https://example.com/gina.jpg',
      user: { id: linked.id },
      schedules: [{ ...DAYTIME, name: 'Season' }],
    });
    expect(created.statusCode).toBe(201);
    const guide = created.json();
    expect(guide).toEqual({
      object: 'guide',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      seller: { id: seller.id },
      user: { id: linked.id },
      name: 'Gina Guide',
      email: 'gina@example.com',
      phone: '+33 6 12 34 56 78',
      bio: 'Paddles since 1999.',
      picture: 'https://example.com/gina.jpg',
      schedules: [{ ...DAYTIME, name: 'Season', id: expect.stringMatching(/^[0-9a-f]{24}$/) }],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(guide.id).not.toBe(linked.id);
    expect(guide.id).not.toBe(seller.id);

    const read = await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(guide);

    // PUT changes the given fields only; null clears the nullable ones.
    const changed = await req(seller, 'PUT', `/${seller.id}/guides/${guide.id}`, {
      phone: null,
      bio: 'Now also kayaks.',
      picture: null,
      user: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({
      ...guide,
      phone: null,
      bio: 'Now also kayaks.',
      picture: null,
      user: { id: null },
      updatedAt: expect.any(String),
    });
    expect(
      (await req(seller, 'PUT', `/${seller.id}/guides/${guide.id}`, { name: 'Gina B.' })).json(),
    ).toMatchObject({ name: 'Gina B.', email: 'gina@example.com', bio: 'Now also kayaks.' });

    const removed = await req(seller, 'DELETE', `/${seller.id}/guides/${guide.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
  });

  it('takes only a name, with empty defaults', async () => {
    const response = await req(seller, 'POST', `/${seller.id}/guides`, { name: 'Min' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'Min',
      user: { id: null },
      email: null,
      phone: null,
      bio: '',
      picture: null,
      schedules: [],
    });
  });

  it('links a user to at most one guide profile per seller', async () => {
    const user = await delegate(t.app, seller, ['ROLE_GUIDE']);
    await createGuide(t.app, seller, seller.id, { user: { id: user.id } });
    const before = await guideCount();
    const again = expectProblem(
      await req(seller, 'POST', `/${seller.id}/guides`, { name: 'Twin', user: { id: user.id } }),
      400,
      'validation_failed',
    );
    expect(again.errors?.[0]).toMatchObject({ in: 'body', name: 'user.id' });
    const other = await createGuide(t.app, seller, seller.id, { name: 'Other' });
    const relink = expectProblem(
      await req(seller, 'PUT', `/${seller.id}/guides/${other.id}`, { user: { id: user.id } }),
      400,
      'validation_failed',
    );
    expect(relink.errors?.[0]).toMatchObject({ name: 'user.id' });
    expect((await guideRow(other.id)).user_id).toBeNull();
    // Another seller may have its own profile for the same user.
    const elsewhere = await openShop(t.app);
    await makeDelegate(t.app, elsewhere.seller, user, ['ROLE_GUIDE']);
    const theirs = await createGuide(t.app, elsewhere.seller, elsewhere.seller.id, {
      user: { id: user.id },
    });
    expect(theirs.user).toEqual({ id: user.id });
    expect(await guideCount()).toBe(before + 2);
  });
});

describe('who may manage guides', () => {
  it('is the seller, its seller-admins and guide managers, and admins', async () => {
    const boss = await delegate(t.app, seller, ['ROLE_SELLER_ADMIN']);
    const manager = await delegate(t.app, seller, ['ROLE_GUIDE_MANAGER']);
    const admin = await createAdmin(t);
    for (const [who, account] of [
      ['seller', seller],
      ['seller admin', boss],
      ['guide manager', manager],
      ['admin', admin],
    ] as const) {
      const created = await req(account, 'POST', `/${seller.id}/guides`, { name: who });
      expect(created.statusCode, who).toBe(201);
      const id = created.json().id;
      expect((await req(account, 'GET', `/${seller.id}/guides`)).statusCode, who).toBe(200);
      expect((await req(account, 'GET', `/${seller.id}/guides/${id}`)).statusCode, who).toBe(200);
      expect(
        (await req(account, 'PUT', `/${seller.id}/guides/${id}`, { bio: who })).statusCode,
        who,
      ).toBe(200);
      const withSchedule = await req(
        account,
        'POST',
        `/${seller.id}/guides/${id}/schedules`,
        ALWAYS,
      );
      expect(withSchedule.statusCode, who).toBe(201);
      const scheduleId = withSchedule.json().id;
      expect(
        (await req(account, 'PUT', `/${seller.id}/guides/${id}/schedules/${scheduleId}`, DAYTIME))
          .statusCode,
        who,
      ).toBe(200);
      expect(
        (await req(account, 'DELETE', `/${seller.id}/guides/${id}/schedules/${scheduleId}`))
          .statusCode,
        who,
      ).toBe(200);
      expect((await req(account, 'DELETE', `/${seller.id}/guides/${id}`)).statusCode, who).toBe(
        204,
      );
    }
  });

  it('refuses other delegates, strangers and other sellers with 403 (their list is empty), and changes nothing', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Kept' });
    const scheduleId = guide.schedules[0]!.id;
    const other = await openShop(t.app);
    const refused: [string, Account][] = [
      ['reservation', await delegate(t.app, seller, ['ROLE_RESERVATION'])],
      ['curator', await delegate(t.app, seller, ['ROLE_CURATOR'])],
      ['guide', await delegate(t.app, seller, ['ROLE_GUIDE'])],
      ['stranger', await signUp(t.app)],
      ['other seller', other.seller],
    ];
    const before = await guideCount();
    for (const [who, account] of refused) {
      // A list of what the caller may not see is empty, never an error.
      const list = await req(account, 'GET', `/${seller.id}/guides`);
      expect(list.statusCode, who).toBe(200);
      expect(list.json().data, who).toEqual([]);
      const calls: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
        ['create', 'POST', `/${seller.id}/guides`, { name: 'Intruder' }],
        ['read', 'GET', `/${seller.id}/guides/${guide.id}`],
        ['update', 'PUT', `/${seller.id}/guides/${guide.id}`, { name: 'Hacked' }],
        ['delete', 'DELETE', `/${seller.id}/guides/${guide.id}`],
        ['add schedule', 'POST', `/${seller.id}/guides/${guide.id}/schedules`, ALWAYS],
        [
          'change schedule',
          'PUT',
          `/${seller.id}/guides/${guide.id}/schedules/${scheduleId}`,
          DAYTIME,
        ],
        ['remove schedule', 'DELETE', `/${seller.id}/guides/${guide.id}/schedules/${scheduleId}`],
      ];
      for (const [what, method, url, payload] of calls) {
        const response = await req(account, method, url, payload as Record<string, unknown>);
        expect(response.statusCode, `${who} ${what}: ${response.body}`).toBe(403);
        expectProblem(response, 403, 'forbidden');
      }
    }
    expect(await guideCount()).toBe(before);
    const row = await guideRow(guide.id);
    expect(row).toMatchObject({ name: 'Kept', deleted_at: null });
    expect((await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json()).toEqual(guide);
    expectProblem(await req(null, 'GET', `/${seller.id}/guides`), 401, 'authentication_required');
  });

  it('answers 404 for an unknown seller, a user that is not a seller, and another seller’s guide', async () => {
    const notSeller = await signUp(t.app);
    const other = await openShop(t.app);
    const theirs = await createGuide(t.app, other.seller, other.seller.id);
    const admin = await createAdmin(t);
    // Lists: empty for a seller that does not exist, as for one the caller may not see.
    for (const [account, sellerId] of [
      [admin, UNKNOWN],
      [notSeller, notSeller.id],
    ] as const) {
      const list = await req(account, 'GET', `/${sellerId}/guides`);
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toEqual([]);
    }
    expectProblem(
      await req(notSeller, 'POST', `/${notSeller.id}/guides`, { name: 'X' }),
      404,
      'not_found',
    );
    // A guide is reached only under its own seller.
    for (const [method, url, payload] of [
      ['GET', `/${seller.id}/guides/${theirs.id}`],
      ['PUT', `/${seller.id}/guides/${theirs.id}`, { name: 'Mine now' }],
      ['DELETE', `/${seller.id}/guides/${theirs.id}`],
      ['POST', `/${seller.id}/guides/${theirs.id}/schedules`, ALWAYS],
      ['GET', `/${seller.id}/guides/${UNKNOWN}`],
    ] as const) {
      expectProblem(await req(seller, method, url, payload), 404, 'not_found');
    }
    expect(
      (await req(other.seller, 'GET', `/${other.seller.id}/guides/${theirs.id}`)).json(),
    ).toEqual(theirs);
    expectProblem(
      await req(seller, 'GET', `/${seller.id}/guides/not-an-id`),
      400,
      'validation_failed',
    );
  });
});

describe('validation', () => {
  it('refuses bad profiles with 400 naming the field, and creates nothing', async () => {
    const schedule = (fields: Record<string, unknown>) => ({
      name: 'S',
      schedules: [{ ...ALWAYS, ...fields }],
    });
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'E', email: 'not an email' }, 'email'],
      [{ name: 'P', phone: 'x'.repeat(41) }, 'phone'],
      [{ name: 'B', bio: null }, 'bio'],
      [{ name: 'U', picture: 'not a url' }, 'picture'],
      [{ name: 'L', user: { id: 'nope' } }, 'user.id'],
      [{ name: 'L', user: { id: UNKNOWN } }, 'user.id'],
      [{ name: 'L', user: UNKNOWN }, 'user'],
      [{ name: 'C', colour: 'red' }, 'colour'],
      [schedule({ days: [7] }), 'schedules.0.days.0'],
      [schedule({ days: [-1] }), 'schedules.0.days.0'],
      [schedule({ days: [] }), 'schedules.0.days'],
      [schedule({ type: 'maybe' }), 'schedules.0.type'],
      [schedule({ repeat: 'daily' }), 'schedules.0.repeat'],
      [{ name: 'S', schedules: [{ ...ALWAYS, type: undefined }] }, 'schedules.0.type'],
      [schedule({ repeat: 'custom', days: undefined }), 'schedules.0.dates'],
      [
        schedule({ repeat: 'custom', days: undefined, dates: ['2030-02-30'] }),
        'schedules.0.dates.0',
      ],
      [
        schedule({ repeat: 'custom', days: undefined, dates: ['30-01-2030'] }),
        'schedules.0.dates.0',
      ],
      [schedule({ start: '2030-13-01' }), 'schedules.0.start'],
      [schedule({ start: '2030-06-10', end: '2030-06-01' }), 'schedules.0.end'],
      [
        schedule({ timeRanges: [{ startTime: 960, endTime: 1200 }] }),
        'schedules.0.timeRanges.0.startTime',
      ],
      [
        schedule({ timeRanges: [{ startTime: 900, endTime: 1275 }] }),
        'schedules.0.timeRanges.0.endTime',
      ],
      [
        schedule({ timeRanges: [{ startTime: 900, endTime: 2401 }] }),
        'schedules.0.timeRanges.0.endTime',
      ],
      [schedule({ timeRanges: [{ startTime: 1200, endTime: 900 }] }), 'schedules.0.timeRanges.0'],
      [schedule({ timeRanges: [{ startTime: 900, endTime: 900 }] }), 'schedules.0.timeRanges.0'],
      [schedule({ timeRanges: [{ startTime: 900 }] }), 'schedules.0.timeRanges.0.endTime'],
      [schedule({ times: [900] }), 'schedules.0.times'],
    ];
    const before = await guideCount();
    for (const [payload, field] of cases) {
      const body = expectProblem(
        await req(seller, 'POST', `/${seller.id}/guides`, payload),
        400,
        'validation_failed',
      );
      expect(
        body.errors?.map((e) => e.name),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect(await guideCount()).toBe(before);
  });

  it('refuses bad changes with 400 naming the field, and changes nothing', async () => {
    const guide = await createGuide(t.app, seller, seller.id, {
      name: 'Steady',
      email: 'steady@example.com',
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ email: 'nope' }, 'email'],
      [{ picture: 'no url' }, 'picture'],
      [{ user: { id: UNKNOWN } }, 'user.id'],
      [{ schedules: [] }, 'schedules'],
      [{ seller: { id: UNKNOWN } }, 'seller'],
    ];
    for (const [payload, field] of cases) {
      const body = expectProblem(
        await req(seller, 'PUT', `/${seller.id}/guides/${guide.id}`, payload),
        400,
        'validation_failed',
      );
      expect(body.errors?.[0]?.name, JSON.stringify(payload)).toBe(field);
    }
    expectProblem(
      await req(seller, 'PUT', `/${seller.id}/guides/${guide.id}`, {}),
      400,
      'validation_failed',
    );
    expect((await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json()).toEqual(guide);
  });
});

describe('guide schedules', () => {
  it('adds, replaces and removes schedules, read through the guide', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Sched', schedules: [] });
    const path = `/${seller.id}/guides/${guide.id}/schedules`;
    const weekdays = {
      name: 'Weekdays',
      type: 'available',
      repeat: 'weekly',
      days: [1, 2, 3, 4, 5],
      timeRanges: [
        { startTime: 800, endTime: 1200 },
        { startTime: 1300, endTime: 2400 },
      ],
      start: '2030-01-01',
      end: '2030-12-31',
    };
    // Create answers with the new schedule (Xola's shape); the guide lists it.
    const added = await req(seller, 'POST', path, weekdays);
    expect(added.statusCode).toBe(201);
    const first = added.json();
    expect(first).toEqual({ ...weekdays, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const readGuide = async () =>
      (await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json();
    expect((await readGuide()).schedules).toEqual([first]);

    // Xola's newer fields: blackout, and bounds as date-times (kept as their dates).
    const holiday = {
      type: 'blackout',
      repeat: 'custom',
      dates: ['2030-07-14', '2030-08-15'],
      start: '2030-07-01T00:00:00+02:00',
    };
    const holidayAdded = (await req(seller, 'POST', path, holiday)).json();
    expect(holidayAdded).toEqual({ ...holiday, start: '2030-07-01', id: expect.any(String) });
    const second = await readGuide();
    expect(second.schedules).toEqual([first, holidayAdded]);
    const holidayId = holidayAdded.id;
    expect(holidayId).not.toBe(first.id);

    const replacement = { type: 'available', repeat: 'weekly', days: [0, 6], timeRanges: [] };
    const replaced = await req(seller, 'PUT', `${path}/${first.id}`, replacement);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().schedules).toEqual([
      { ...replacement, id: first.id },
      second.schedules[1],
    ]);

    const read = (await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json();
    expect(read.schedules).toEqual(replaced.json().schedules);

    const removed = await req(seller, 'DELETE', `${path}/${holidayId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().schedules).toEqual([{ ...replacement, id: first.id }]);
    expectProblem(await req(seller, 'DELETE', `${path}/${holidayId}`), 404, 'not_found');
    expectProblem(await req(seller, 'PUT', `${path}/${holidayId}`, ALWAYS), 404, 'not_found');
    expectProblem(await req(seller, 'PUT', `${path}/${UNKNOWN}`, ALWAYS), 404, 'not_found');
    expectProblem(
      await req(seller, 'POST', `/${seller.id}/guides/${UNKNOWN}/schedules`, ALWAYS),
      404,
      'not_found',
    );
  });

  it('accepts all-day (no ranges) and midnight-ending ranges', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { schedules: [] });
    const path = `/${seller.id}/guides/${guide.id}/schedules`;
    const late = {
      type: 'available',
      repeat: 'weekly',
      days: [5],
      timeRanges: [{ startTime: 0, endTime: 2400 }],
    };
    expect((await req(seller, 'POST', path, late)).statusCode).toBe(201);
    expect((await req(seller, 'POST', path, ALWAYS)).statusCode).toBe(201);
    expect((await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json().schedules).toEqual(
      [
        { ...late, id: expect.any(String) },
        { ...ALWAYS, id: expect.any(String) },
      ],
    );
  });

  it('adds none past the 50 a whole body may carry (409 too_many_schedules)', async () => {
    const full = Array.from({ length: 50 }, () => ALWAYS);
    const guide = await createGuide(t.app, seller, seller.id, { schedules: full });
    const path = `/${seller.id}/guides/${guide.id}/schedules`;
    const refused = await req(seller, 'POST', path, ALWAYS);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('too_many_schedules');
    const read = await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`);
    expect(read.json().schedules).toHaveLength(50);
  });

  it('refuses bad schedules with 400 naming the field, and changes nothing', async () => {
    const guide = await createGuide(t.app, seller, seller.id, {
      name: 'Strict',
      schedules: [DAYTIME],
    });
    const path = `/${seller.id}/guides/${guide.id}/schedules`;
    const scheduleId = guide.schedules[0]!.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ALWAYS, days: [7] }, 'days.0'],
      [{ ...ALWAYS, days: [1, 1] }, 'days'],
      [{ ...ALWAYS, days: undefined }, 'days'],
      [{ ...ALWAYS, type: 'busy' }, 'type'],
      [{ ...ALWAYS, repeat: undefined }, 'repeat'],
      [{ type: 'available', repeat: 'custom', dates: ['2030-02-29'] }, 'dates.0'],
      [{ type: 'available', repeat: 'custom', dates: [] }, 'dates'],
      [{ type: 'available', repeat: 'custom', dates: ['2030-06-01'], days: [1] }, 'days'],
      [{ ...ALWAYS, dates: ['2030-06-01'] }, 'dates'],
      [{ ...ALWAYS, start: '2030-04-31' }, 'start'],
      [{ ...ALWAYS, end: 'someday' }, 'end'],
      [{ ...ALWAYS, start: '2030-06-02', end: '2030-06-01' }, 'end'],
      [{ ...ALWAYS, timeRanges: [{ startTime: 860, endTime: 1000 }] }, 'timeRanges.0.startTime'],
      [{ ...ALWAYS, timeRanges: [{ startTime: 2400, endTime: 2400 }] }, 'timeRanges.0.startTime'],
      [{ ...ALWAYS, timeRanges: [{ startTime: 800, endTime: 1099 }] }, 'timeRanges.0.endTime'],
      [{ ...ALWAYS, timeRanges: [{ startTime: 800, endTime: -1 }] }, 'timeRanges.0.endTime'],
      [{ ...ALWAYS, timeRanges: [{ startTime: 1000, endTime: 800 }] }, 'timeRanges.0'],
      [
        {
          ...ALWAYS,
          timeRanges: [
            { startTime: 800, endTime: 900 },
            { startTime: 1000, endTime: 1000 },
          ],
        },
        'timeRanges.1',
      ],
      [
        { ...ALWAYS, timeRanges: [{ startTime: 800, endTime: 900, colour: 1 }] },
        'timeRanges.0.colour',
      ],
      [{ ...ALWAYS, times: [900] }, 'times'],
      [{ ...ALWAYS, id: UNKNOWN }, 'id'],
      [{ ...ALWAYS, priceDelta: 5 }, 'priceDelta'],
      [{ ...ALWAYS, departure: 'fixed' }, 'departure'],
      [{ ...ALWAYS, start: '2030-06-01T24:00:00Z' }, 'start'],
    ];
    for (const [payload, field] of cases) {
      for (const [method, url] of [
        ['POST', path],
        ['PUT', `${path}/${scheduleId}`],
      ] as const) {
        const body = expectProblem(
          await req(seller, method, url, payload),
          400,
          'validation_failed',
        );
        expect(
          body.errors?.map((e) => e.name),
          `${method} ${JSON.stringify(payload)}`,
        ).toContain(field);
      }
    }
    expect((await req(seller, 'GET', `/${seller.id}/guides/${guide.id}`)).json()).toEqual(guide);
  });
});

describe('GET /api/sellers/{id}/guides', () => {
  let lister: Shop;
  let guides: Guide[];
  let linked: Account;
  beforeAll(async () => {
    lister = await openShop(t.app);
    linked = await delegate(t.app, lister.seller, ['ROLE_GUIDE']);
    const s = lister.seller;
    // Each in a second of its own: ids order by creation second, and these tests read the
    // default (newest first) order.
    const nextSecond = () =>
      new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    guides = [];
    for (const fields of [
      { name: 'Alice Archer', email: 'alice@river.example' },
      { name: 'Bob Boatman', email: 'bob@sea.example', user: { id: linked.id } },
      { name: 'Alina Arrow', email: 'alina@river.example' },
    ]) {
      await nextSecond();
      guides.push(await createGuide(t.app, s, s.id, fields));
    }
    // Another seller's guides never show in this seller's list.
    const other = await openShop(t.app);
    await createGuide(t.app, other.seller, other.seller.id, { name: 'Alice Elsewhere' });
  });

  const list = (query = '', account?: Account) =>
    as(t.app, account ?? lister.seller, {
      method: 'GET',
      url: `/api/sellers/${lister.seller.id}/guides${query}`,
    });

  it('lists the seller’s guides newest first, with paging', async () => {
    const all = await list();
    expect(all.statusCode).toBe(200);
    expect(idsOf(all)).toEqual(guides.map((g) => g.id).reverse());
    expect(all.json().data[0]).toEqual(guides[2]);
    expect(all.json().paging).toEqual({ next: null });
    const page = await list('?limit=2&count=true');
    expect(idsOf(page)).toEqual([guides[2]!.id, guides[1]!.id]);
    expect(page.json().paging.total).toBe(3);
    expect(page.json().paging.next).toEqual(expect.stringContaining('limit=2'));
    expect(idsOf(await list('?sort=name'))).toEqual([guides[0]!.id, guides[2]!.id, guides[1]!.id]);
  });

  it('filters by seller, name, email, user and createdAt', async () => {
    const [alice, bob, alina] = guides as [Guide, Guide, Guide];
    const s = lister.seller.id;
    const cases: [string, string[]][] = [
      [`seller=${s}`, [alina.id, bob.id, alice.id]],
      [`seller=${shop.seller.id}`, []],
      ['name=Bob Boatman', [bob.id]],
      ['name[startsWith]=ali', [alina.id, alice.id]],
      ['name[contains]=ARCH', [alice.id]],
      ['name[doesNotContain]=ali', [bob.id]],
      ['email=bob@sea.example', [bob.id]],
      ['email[endsWith]=river.example', [alina.id, alice.id]],
      [`user=${linked.id}`, [bob.id]],
      ['user[exists]=false', [alina.id, alice.id]],
      [`id[in]=${alice.id},${bob.id}`, [bob.id, alice.id]],
      [`createdAt[gte]=${String(bob.createdAt)}`, [alina.id, bob.id]],
      [`createdAt[lt]=${String(bob.createdAt)}`, [alice.id]],
      [`createdAt[gt]=2099-01-01T00:00:00Z`, []],
    ];
    for (const [query, expected] of cases) {
      const response = await list(`?${encodeURI(query)}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      expect(idsOf(response), query).toEqual(expected);
    }
  });

  it('answers 400 naming the parameter for an unknown field, a bad operator or value', async () => {
    const cases: [string, string, string][] = [
      ['phone=1', 'unknown_field', 'phone'],
      ['bio[contains]=x', 'unknown_field', 'bio[contains]'],
      ['name[gt]=a', 'operator_not_allowed', 'name[gt]'],
      ['name[sortOf]=a', 'unknown_operator', 'name[sortOf]'],
      ['user=nope', 'invalid_value', 'user'],
      ['createdAt=yesterday', 'invalid_value', 'createdAt'],
      ['sort=email', 'invalid_sort', 'sort'],
    ];
    for (const [query, code, parameter] of cases) {
      const body = expectProblem(await list(`?${query}`), 400, code);
      expect(body.errors?.[0], query).toMatchObject({ in: 'query', name: parameter });
    }
  });

  it('shows guide managers the list, and other delegates and strangers an empty one', async () => {
    const manager = await delegate(t.app, lister.seller, ['ROLE_GUIDE_MANAGER']);
    expect(idsOf(await list('', manager))).toHaveLength(3);
    const clerk = await delegate(t.app, lister.seller, ['ROLE_RESERVATION']);
    const stranger = await signUp(t.app);
    for (const account of [clerk, stranger]) {
      const response = await list('?count=true', account);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [], paging: { next: null, total: 0 } });
    }
    // A malformed query is still a 400, whoever asks.
    expectProblem(await list('?bogus=1', clerk), 400, 'unknown_field');
  });
});

describe('deleting a guide', () => {
  it('takes it off future events, keeps it on past ones, and hides it everywhere', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Leaving' });
    const stays = await createGuide(t.app, seller, seller.id, { name: 'Staying' });
    const past = await createEvent(t.app, seller, shop.experienceId, '2020-01-06T09:00');
    const future = await createEvent(t.app, seller, shop.experienceId, '2031-01-06T09:00');
    for (const event of [past, future]) {
      for (const g of [guide, stays]) {
        const assigned = await assign(t.app, seller, event.id, { guide: { id: g.id } });
        expect(assigned.statusCode, assigned.body).toBe(201);
      }
    }
    expect((await req(seller, 'DELETE', `/${seller.id}/guides/${guide.id}`)).statusCode).toBe(204);

    expect(guideIdsOf((await readEvent(t.app, seller, future.id)).json())).toEqual([stays.id]);
    expect(guideIdsOf((await readEvent(t.app, seller, past.id)).json())).toEqual([
      guide.id,
      stays.id,
    ]);
    const history = await as(t.app, seller, {
      method: 'GET',
      url: `/api/events?guides=${guide.id}`,
    });
    expect(idsOf(history)).toEqual([past.id]);

    // Soft-deleted: every guide endpoint answers 404, and the list leaves it out.
    const scheduleId = guide.schedules[0]!.id;
    for (const [method, url, payload] of [
      ['GET', `/${seller.id}/guides/${guide.id}`],
      ['PUT', `/${seller.id}/guides/${guide.id}`, { name: 'Back' }],
      ['DELETE', `/${seller.id}/guides/${guide.id}`],
      ['POST', `/${seller.id}/guides/${guide.id}/schedules`, ALWAYS],
      ['PUT', `/${seller.id}/guides/${guide.id}/schedules/${scheduleId}`, ALWAYS],
      ['DELETE', `/${seller.id}/guides/${guide.id}/schedules/${scheduleId}`],
    ] as const) {
      expectProblem(await req(seller, method, url, payload), 404, 'not_found');
    }
    expect(idsOf(await req(seller, 'GET', `/${seller.id}/guides?id=${guide.id}`))).toEqual([]);
    expect(idsOf(await req(seller, 'GET', `/${seller.id}/guides?name=Leaving`))).toEqual([]);
    // ...and it cannot be assigned again.
    const later = await createEvent(t.app, seller, shop.experienceId, '2031-01-07T09:00');
    expectProblem(
      await assign(t.app, seller, later.id, { guide: { id: guide.id } }),
      404,
      'not_found',
    );
    expect((await guideRow(guide.id)).deleted_at).not.toBeNull();
  });

  it('announces each future event it leaves as event.update, the guide in old and not in new', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Announced' });
    const stays = await createGuide(t.app, seller, seller.id, { name: 'Stays on' });
    const past = await createEvent(t.app, seller, shop.experienceId, '2020-02-03T09:00');
    const first = await createEvent(t.app, seller, shop.experienceId, '2031-02-03T09:00');
    const second = await createEvent(t.app, seller, shop.experienceId, '2031-02-04T09:00');
    for (const event of [past, first, second]) {
      expect((await assign(t.app, seller, event.id, { guide: { id: guide.id } })).statusCode).toBe(
        201,
      );
    }
    expect((await assign(t.app, seller, first.id, { guide: { id: stays.id } })).statusCode).toBe(
      201,
    );
    const updatesOf = (ids: string[]) =>
      t.database.db
        .selectFrom('domain_events')
        .select(['actor_id', 'audit', sql<string>`object ->> 'id'`.as('event')])
        .where('name', '=', 'event.update')
        .where(sql<string>`object ->> 'id'`, 'in', ids)
        .orderBy('seq')
        .execute();
    const ids = [past.id, first.id, second.id];
    const before = (await updatesOf(ids)).length;

    expect((await req(seller, 'DELETE', `/${seller.id}/guides/${guide.id}`)).statusCode).toBe(204);

    const announced = (await updatesOf(ids)).slice(before);
    expect(announced.map((e) => e.event).sort()).toEqual([first.id, second.id].sort());
    const on = (list: unknown) => (list as { guide: { id: string } }[]).map((g) => g.guide.id);
    for (const { actor_id, audit, event } of announced) {
      const guides = (audit as Record<string, { old: unknown; new: unknown }>).guides!;
      // What changed is the guides alone, by the caller that deleted the guide.
      expect(Object.keys(audit as object)).toEqual(['guides']);
      expect(actor_id).toBe(seller.id);
      expect(on(guides.old)).toContain(guide.id);
      expect(on(guides.new)).not.toContain(guide.id);
      expect(on(guides.new)).toEqual(event === first.id ? [stays.id] : []);
    }
  });

  it('leaves more future events than a page, each announced once', async () => {
    // Two whole pages, whole batches and a remainder one by one (assignment-leave.ts).
    const count = 2 * LEAVE_PAGE + ANNOUNCED_TOGETHER + 3;
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Busy' });
    const first = await createEvent(t.app, seller, shop.experienceId, '2032-01-01T09:00');
    expect((await assign(t.app, seller, first.id, { guide: { id: guide.id } })).statusCode).toBe(
      201,
    );
    // The others copy the first, a day apart (made by SQL: thousands of requests otherwise).
    await sql`
      insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved,
                          guide_ids, guide_statuses, created_at, updated_at)
      select substr(md5(e.id || g), 1, 24), e.experience_id, e.seller_id,
             e.starts_at + g * interval '1 day', e.ends_at + g * interval '1 day', e.max, 0,
             e.guide_ids, e.guide_statuses, e.created_at, e.updated_at
      from events e, generate_series(1, ${count - 1}::int) g
      where e.id = ${first.id}
    `.execute(t.database.db);
    const onIt = sql<number>`count(*) filter (where e.guide_ids @> array[${guide.id}]::text[])`;
    const stillOn = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('events as e')
            .select(onIt.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await stillOn()).toBe(count);

    expect((await req(seller, 'DELETE', `/${seller.id}/guides/${guide.id}`)).statusCode).toBe(204);

    expect(await stillOn()).toBe(0);
    const announced = await t.database.db
      .selectFrom('domain_events')
      .select([sql<string>`object ->> 'id'`.as('event'), 'audit'])
      .where('name', '=', 'event.update')
      .where('actor_id', '=', seller.id)
      .where(sql<string>`audit -> 'guides' -> 'old' -> 0 -> 'guide' ->> 'id'`, '=', guide.id)
      .execute();
    expect(announced).toHaveLength(count);
    expect(new Set(announced.map((e) => e.event)).size).toBe(count);
    for (const { audit } of announced) {
      expect(audit).toEqual({
        guides: { old: [{ status: 'pending', guide: { id: guide.id } }], new: [] },
      });
    }
  });

  it('happens once: concurrent DELETEs answer 204 then 404, with one guide.delete', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { name: 'Twice' });
    const url = `/${seller.id}/guides/${guide.id}`;
    const answers = await Promise.all([req(seller, 'DELETE', url), req(seller, 'DELETE', url)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([204, 404]);
    const deletedAt = (await guideRow(guide.id)).deleted_at;
    expectProblem(await req(seller, 'DELETE', url), 404, 'not_found');
    // A retry moves nothing: the guide was deleted when it was.
    expect((await guideRow(guide.id)).deleted_at).toEqual(deletedAt);
    const announced = await t.database.db
      .selectFrom('domain_events')
      .select('name')
      .where('name', 'like', 'guide.%')
      .where(sql<string>`object ->> 'id'`, '=', guide.id)
      .execute();
    expect(announced.map((e) => e.name).sort()).toEqual(['guide.create', 'guide.delete']);
  });

  it('frees the linked user for a new profile', async () => {
    const user = await delegate(t.app, seller, ['ROLE_GUIDE']);
    const first = await createGuide(t.app, seller, seller.id, { user: { id: user.id } });
    await req(seller, 'DELETE', `/${seller.id}/guides/${first.id}`);
    const second = await req(seller, 'POST', `/${seller.id}/guides`, {
      name: 'Again',
      user: { id: user.id },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().id).not.toBe(first.id);
  });
});
