/**
 * Reads what an order confirmation shows: the order as the API presents it, the time zone
 * each item was booked in (so a reader sees "Europe/Paris" and not only "+01:00"), and, for
 * experiences whose guide preferences say `includeInConfirmation`, the profile of each
 * guide assigned to the item's event when the email is sent.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/types.js';
import { toOrderView } from '../modules/orders/orders.mapper.js';
import type { ConfirmationInput, GuideContact } from './confirmation.template.js';

export async function loadConfirmation(
  db: Kysely<DB>,
  orderId: string,
): Promise<ConfirmationInput | null> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('arrival_datetime')
    .orderBy('id')
    .execute();
  return {
    order: toOrderView(order, items),
    timezones: new Map(items.map((item) => [item.id, item.timezone])),
    guides: await guidesOfItems(db, items),
  };
}

async function guidesOfItems(
  db: Kysely<DB>,
  items: { id: string; event_id: string }[],
): Promise<Map<string, GuideContact[]>> {
  const rows = await db
    .selectFrom('events as e')
    .innerJoin('experiences as x', 'x.id', 'e.experience_id')
    .select(['e.id', 'e.guide_ids'])
    .where(
      'e.id',
      'in',
      items.map((i) => i.event_id),
    )
    .where(sql<SqlBool>`coalesce((x.guide ->> 'includeInConfirmation')::boolean, false)`)
    .execute();
  const guideIds = [...new Set(rows.flatMap((r) => r.guide_ids))];
  const profiles =
    guideIds.length === 0
      ? []
      : await db
          .selectFrom('guides')
          .select(['id', 'name', 'phone', 'email', 'bio'])
          .where('id', 'in', guideIds)
          .where('deleted_at', 'is', null)
          .execute();
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const byEvent = new Map(
    rows.map((r) => [r.id, r.guide_ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))]),
  );
  return new Map(items.map((item) => [item.id, byEvent.get(item.event_id) ?? []]));
}
