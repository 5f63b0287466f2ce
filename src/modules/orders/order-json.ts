/**
 * The Order view of the current API version as PostgreSQL builds it, row `o` of `orders`
 * becoming its JSON text (issue 27): the projection is generated from the schema in
 * orders.schemas.ts (db/json-view.ts), and each value below is the SQL twin of
 * `toOrderView`'s mapping of the same column, which test/http/order-json.test.ts holds
 * to the same JSON value. Reads of the latest version send this text as it is; writes and
 * older versions still map rows in Node (their bodies are made once, or transformed).
 */
import { fromJsonb, jsonObject, sqlViews } from '../../db/json-view.js';
import { Order, OrderItem, Payment } from './orders.schemas.js';

const { iso, ref, refOrNull } = sqlViews;

const twoDigits = (value: string) => `to_char(${value}, 'FM00')`;

/**
 * `localIso(arrival_datetime, timezone)` without a time-zone database: an item's `arrival`
 * and `arrivalTime` are its departure's local date and time in the item's zone (the
 * booking writes the three together), so the offset is that wall time less the instant.
 * PostgreSQL's zone names and rules need not then agree with Node's. Luxon writes `Z` for
 * the zones it reads as UTC (`utc`, `gmt`, any case) and `±hh:mm` for the others. The one
 * limit: an offset with seconds, which no zone has had since 1972 (Africa/Monrovia's
 * -00:44:30), shows here as the minutes between the wall time and the instant, where
 * Luxon writes its own local seconds and truncates the offset.
 */
function itemLocalIso(i: string): string {
  const wall = `(${i}.arrival + make_interval(hours => ${i}.arrival_time / 100, mins => ${i}.arrival_time % 100))`;
  const utc = `(${i}.arrival_datetime at time zone 'UTC')`;
  const minutes = `(extract(epoch from ${wall} - date_trunc('minute', ${utc}))::int / 60)`;
  const offset = `case when ${minutes} < 0 then '-' else '+' end || ${twoDigits(`abs(${minutes}) / 60`)} || ':' || ${twoDigits(`abs(${minutes}) % 60`)}`;
  return `(to_char(${wall}, 'YYYY-MM-DD"T"HH24:MI') || to_char(${utc}, ':SS') || case when lower(${i}.timezone) in ('utc', 'gmt') then 'Z' else ${offset} end)`;
}

const LineItem = OrderItem.properties.lineItems.items;
const DemographicLine = OrderItem.properties.demographics.items;

/** `lineItemsOf`: one line per guest type booked, or one of the default type. */
const lineItems = `case when jsonb_array_length(i.demographics) = 0
  then json_build_array(${jsonObject(LineItem, { demographic: 'null', quantity: 'i.quantity', price: 'i.price', amount: 'i.amount' })})
  else (select json_agg(${jsonObject(LineItem, {
    demographic: fromJsonb(DemographicLine.properties.demographic, "(l -> 'demographic')"),
    quantity: "(l -> 'quantity')",
    price: "(l -> 'price')",
    amount: "(l -> 'amount')",
  })} order by n) from jsonb_array_elements(i.demographics) with ordinality as d(l, n)) end`;

const Guest = OrderItem.properties.guests.items;

/** An item's live guests in seat order, and `itemGuestStatus` of them. */
const guests = `select json_agg(${jsonObject(Guest, {
  id: 'g.id',
  demographic: refOrNull('g.demographic_id'),
  ticketCode: 'g.ticket_code',
  guestStatus: 'g.status',
})} order by g.position, g.id) as list,
  case when count(*) = 0 or bool_or(g.status = 'pending') then 'pending'
    when bool_or(g.status = 'arrived') then 'arrived' else 'no_show' end as status
  from order_guests g where g.order_id = o.id and g.item_id = i.id and g.canceled_at is null`;

const item = jsonObject(OrderItem, {
  id: 'i.id',
  experience: ref('i.experience_id'),
  event: ref('i.event_id'),
  name: 'i.name',
  arrival: 'i.arrival',
  arrivalTime: 'i.arrival_time',
  arrivalDatetime: itemLocalIso('i'),
  quantity: 'i.quantity',
  demographics: fromJsonb(OrderItem.properties.demographics, 'i.demographics'),
  lineItems,
  price: 'i.price',
  amount: 'i.amount',
  shortCode: 'o.short_code',
  status: 'i.status',
  ticketCode: 'i.ticket_code',
  guests: "coalesce(g.list, '[]'::json)",
  guestStatus: 'g.status',
});

/** The order of row `o`, its items in booking order (item-order.ts), as JSON. */
export const orderJson = jsonObject(Order, {
  id: 'o.id',
  seller: ref('o.seller_id'),
  customer: refOrNull('o.customer_id'),
  customerName: 'o.customer_name',
  customerEmail: 'o.customer_email',
  phone: 'o.phone',
  source: 'o.source',
  status: 'o.status',
  shortCode: 'o.short_code',
  arrival: 'o.arrival',
  amount: 'o.amount',
  currency: 'o.currency',
  payment: `case when o.payment_method is not null then ${jsonObject(Payment, { method: 'o.payment_method' })} end`,
  notes: fromJsonb(Order.properties.notes, 'o.notes'),
  adjustments: fromJsonb(Order.properties.adjustments, 'o.adjustments'),
  holdExpiresAt: iso('o.hold_expires_at'),
  items: `coalesce((select json_agg(${item} order by i.position, i.id) from order_items i
    left join lateral (${guests}) g on true where i.order_id = o.id), '[]'::json)`,
  createdAt: iso('o.created_at'),
  updatedAt: iso('o.updated_at'),
});
