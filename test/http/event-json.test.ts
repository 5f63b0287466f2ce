/**
 * The Event view PostgreSQL builds around Node's local times
 * (src/modules/events/event-json.ts), sent as text to list reads of the latest version,
 * against the view the service maps in Node (`toEventView`, what single reads, writes, older
 * versions and `expand=` answer): the same JSON value for events of every state (capacity or
 * none, open or closed by hand, guides pending, confirmed and declined, in assignment
 * order) in zones east and west of UTC, and for any zone and instants (fast-check).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsRepository } from '../../src/modules/events/events.repository.js';
import { Event, toEventView } from '../../src/modules/events/events.schemas.js';
import { as, createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createEvent } from '../helpers/guides.js';

let t: TestApp;
const shops: Record<string, Shop> = {};

const ZONES = ['Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'UTC', 'Pacific/Chatham'];

beforeAll(async () => {
  t = await createTestApp();
  for (const timezone of ZONES) shops[timezone] = await openShop(t.app, { timezone });
});
afterAll(async () => t.close());

/** The views mapped in Node from the same rows, as the serializer sends them. */
async function nodeViews(ids: string[]): Promise<unknown[]> {
  const rows = await eventsRepository(t.database.db).findMany(ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) =>
    Value.Clean(Event, JSON.parse(JSON.stringify(toEventView(byId.get(id)!)))),
  );
}

/** GET /api/events as the shop's seller: the text PostgreSQL built (its spacing shows it). */
async function textPage(shop: Shop, query = '') {
  const response = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/events?experience=${shop.experienceId}&sort=start${query}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
  if (response.json().data.length > 0) expect(response.body).toContain('"object" : "event"');
  return response.json();
}

describe('the event view PostgreSQL builds', () => {
  it('is the JSON value the service maps, for events of every state and zone', async () => {
    const guideIds = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24)];
    for (const zone of ZONES) {
      const shop = shops[zone]!;
      // Both sides of the zones' clock changes in 2030 (where they have them).
      const made = [];
      for (const start of ['2030-03-20T09:00', '2030-04-10T14:00', '2030-10-30T09:00']) {
        made.push((await createEvent(t.app, shop.seller, shop.experienceId, start)).id);
      }
      const [plain, unlimited, guided] = made as [string, string, string];
      await sql`update events set max = null, manual = true where id = ${unlimited}`.execute(
        t.database.db,
      );
      await sql`update events set reserved = 4, max = 10, manual = false,
          guide_ids = ${guideIds}::text[],
          guide_statuses = ${JSON.stringify({ [guideIds[0]!]: 'declined', [guideIds[2]!]: 'pending' })}::jsonb
        where id = ${guided}`.execute(t.database.db);
      const page = await textPage(shop);
      expect(page.data.map((e: { id: string }) => e.id)).toEqual([plain, unlimited, guided]);
      expect(page.data).toEqual(await nodeViews(made));
      expect(page.data[2].guides.map((g: { status: string }) => g.status)).toEqual([
        'declined',
        'confirmed',
        'pending',
      ]);
    }
  });

  it('writes any local start and end as the service does, in any zone', async () => {
    const shop = shops.UTC!;
    const { id } = await createEvent(t.app, shop.seller, shop.experienceId, '2031-01-01T09:00');
    const zones = Intl.supportedValuesOf('timeZone');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones, 'UTC'),
        // Milliseconds from 1971 to 2070, and a length up to two days.
        fc.integer({ min: 31_536_000_000, max: 3_155_760_000_000 }),
        fc.integer({ min: 0, max: 172_800_000 }),
        async (zone, start, length) => {
          await sql`update experiences set timezone = ${zone} where id = ${shop.experienceId}`.execute(
            t.database.db,
          );
          await sql`update events set starts_at = ${new Date(start)},
              ends_at = ${new Date(start + length)} where id = ${id}`.execute(t.database.db);
          const page = await textPage(shop, `&id=${id}`);
          expect(page.data).toEqual(await nodeViews([id]));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages, counts and answers an empty page as the envelope says', async () => {
    const shop = shops['Europe/Paris']!;
    const first = await textPage(shop, '&limit=2&count=true');
    expect(Object.keys(first)).toEqual(['data', 'paging']);
    expect(first.data).toHaveLength(2);
    expect(first.paging.total).toBe(3);
    const next = await as(t.app, shop.seller, { method: 'GET', url: first.paging.next });
    expect(next.json().data).toEqual(await nodeViews([(await textPage(shop)).data[2].id]));
    expect(next.json().paging).toEqual({ next: null, total: 3 });

    const none = await textPage(shop, '&start[gt]=2099-01-01');
    expect(none).toEqual({ data: [], paging: { next: null } });
  });

  it('shows another seller nothing of these events', async () => {
    const stranger = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const shop = shops['Europe/Paris']!;
    const response = await as(t.app, stranger, {
      method: 'GET',
      url: `/api/events?experience=${shop.experienceId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
  });
});
