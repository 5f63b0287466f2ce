/**
 * The floor server's views (bench/floor-server.ts): SQL expressions that make PostgreSQL
 * build, row by row, the same JSON value our API sends for an order (with its items, their
 * priced lines and live guests) and for an event, as of the current API version, the way
 * PostgREST answers. Written by hand from src/modules/orders/orders.schemas.ts and
 * src/modules/events/events.schemas.ts; the bench checks each body against ours before it
 * measures, so a view that drifts from ours fails the run instead of flattering the floor.
 */

/** `iso()`: UTC with milliseconds and `Z` (the columns hold milliseconds). */
const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `localIso()`: Luxon's ISO text in the zone, seconds always, milliseconds suppressed (our
 * departures start on whole minutes), `Z` for the zone named UTC and `±hh:mm` for others.
 */
function localIso(instant: string, zone: string): string {
  const minutes = `(extract(epoch from (${instant} at time zone ${zone}) - (${instant} at time zone 'UTC'))::int / 60)`;
  return `(to_char(${instant} at time zone ${zone}, 'YYYY-MM-DD"T"HH24:MI:SS') || case when ${zone} = 'UTC' then 'Z' else case when ${minutes} < 0 then '-' else '+' end || to_char(abs(${minutes}) / 60, 'FM00') || ':' || to_char(abs(${minutes}) % 60, 'FM00') end)`;
}

const refOrNull = (column: string) =>
  `case when ${column} is null then null else json_build_object('id', ${column}) end`;

/** An item's priced lines (line-items.ts): one per guest type, or one of the default type. */
const lineItems = `case when jsonb_array_length(i.demographics) = 0
  then json_build_array(json_build_object('object', 'lineitem_demographic', 'demographic', null,
    'quantity', i.quantity, 'price', i.price, 'amount', i.amount))
  else (select json_agg(json_build_object('object', 'lineitem_demographic',
    'demographic', json_build_object('id', l->'demographic'->'id'), 'quantity', l->'quantity',
    'price', l->'price', 'amount', l->'amount') order by n)
    from jsonb_array_elements(i.demographics) with ordinality d(l, n)) end`;

/** An item's live guests in seat order and their aggregate status (guests.ts). */
const guests = `select json_agg(json_build_object('id', g.id,
    'demographic', ${refOrNull('g.demographic_id')}, 'ticketCode', g.ticket_code,
    'guestStatus', g.status) order by g.position, g.id) as list,
  case when count(*) = 0 or bool_or(g.status = 'pending') then 'pending'
    when bool_or(g.status = 'arrived') then 'arrived' else 'no_show' end as status
  from order_guests g where g.order_id = o.id and g.item_id = i.id and g.canceled_at is null`;

const item = `json_build_object('id', i.id, 'experience', json_build_object('id', i.experience_id),
  'event', json_build_object('id', i.event_id), 'name', i.name, 'arrival', i.arrival,
  'arrivalTime', i.arrival_time, 'arrivalDatetime', ${localIso('i.arrival_datetime', 'i.timezone')},
  'quantity', i.quantity, 'demographics', i.demographics, 'lineItems', ${lineItems},
  'price', i.price, 'amount', i.amount, 'shortCode', o.short_code, 'status', i.status,
  'ticketCode', i.ticket_code, 'guests', coalesce(g.list, '[]'::json), 'guestStatus', g.status)`;

/** The order of row `o` (toOrderView), its items in booking order (item-order.ts). */
export const orderJson = `json_build_object('object', 'order', 'id', o.id,
  'seller', json_build_object('id', o.seller_id), 'customer', ${refOrNull('o.customer_id')},
  'customerName', o.customer_name, 'customerEmail', o.customer_email, 'phone', o.phone,
  'source', o.source, 'status', o.status, 'shortCode', o.short_code, 'arrival', o.arrival,
  'amount', o.amount, 'currency', o.currency,
  'payment', case when o.payment_method is null then null else json_build_object('method', o.payment_method) end,
  'notes', o.notes, 'adjustments', o.adjustments, 'holdExpiresAt', ${iso('o.hold_expires_at')},
  'items', coalesce((select json_agg(${item} order by i.position, i.id) from order_items i
    left join lateral (${guests}) g on true where i.order_id = o.id), '[]'::json),
  'createdAt', ${iso('o.created_at')}, 'updatedAt', ${iso('o.updated_at')})`;

/**
 * The event of row `e` with its experience `x` (toEventView). Its local start and end are
 * the texts each event keeps (migration 0023), as ours reads them: the best SQL for the same
 * data. Until the fourteenth pass of issue 27 the floor made them with `at time zone`.
 */
export const eventJson = `json_build_object('object', 'event', 'id', e.id,
  'experience', json_build_object('id', e.experience_id), 'seller', json_build_object('id', e.seller_id),
  'title', x.name, 'start', e.local_start, 'end', e.local_end, 'max', e.max,
  'quantity', json_build_object('reserved', e.reserved),
  'open', case when e.manual is false then 0 when e.max is null then null else greatest(0, e.max - e.reserved) end,
  'manual', e.manual,
  'guides', coalesce((select json_agg(json_build_object('status', coalesce(e.guide_statuses->>u.id, 'confirmed'),
    'guide', json_build_object('id', u.id)) order by u.n) from unnest(e.guide_ids) with ordinality u(id, n)), '[]'::json),
  'createdAt', ${iso('e.created_at')}, 'updatedAt', ${iso('e.updated_at')})`;
