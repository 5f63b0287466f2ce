/**
 * Orders and their items, in batches (one progress tick each).
 *
 * Order n is created at an instant that grows with n, from the start of the window up
 * to the as-of instant, so ids grow with n and rows lie in the table in creation order, as
 * a live table's do. It books the first departure after a lead time (an hour to four
 * months, mostly short), then, for a second or third item, the following departures of the
 * same experience. About a third of the orders belong to registered customers (and carry
 * their name and email), the rest to guests; 6% are canceled (items status 700).
 *
 * After the last batch each event's reserved seats are set to the seats its confirmed
 * items take; an event that got more than its capacity has its capacity raised to that
 * (a seller may do the same with POST /api/events), so `reserved <= max` always holds.
 */
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from '../../modules/orders/index.js';
import type { SeedContext } from './context.js';
import { emailDomain, emailLocalPart, nameColumns } from './people.js';
import { idSql, rnd, TAG } from './sql.js';
import { S } from './streams.js';

/**
 * Order n's short code: n in base 31 over the short-code alphabet, eight characters, so
 * codes are unique (n is) and look like the service's own.
 */
function shortCodeSql(n: string): string {
  const digits = Array.from(
    { length: SHORT_CODE_LENGTH },
    (_, k) =>
      `substr('${SHORT_CODE_ALPHABET}', (${n}::bigint / ${31 ** (SHORT_CODE_LENGTH - 1 - k)}::bigint % 31)::int + 1, 1)`,
  );
  return digits.join(' || ');
}

export async function createOrderBatch(ctx: SeedContext, lo: number, hi: number): Promise<void> {
  const { seed, orders, customers } = ctx.options;
  const r = (stream: number) => rnd(seed, 'o.n', stream);
  const start = ctx.fromUtc;
  await ctx.run(`
    create temp table s_orders as
    select o.n, ${idSql('o.created_at', TAG.order, 'o.n')} as id, o.created_at,
           case when o.canceled
                then o.created_at + ${r(S.orderUpdated)} * greatest(interval '0',
                       least(f.starts_at, ${ctx.asOf}) - o.created_at)
                else o.created_at end as updated_at,
           case when o.canceled then 'canceled' else 'confirmed' end as status,
           f.experience_n, f.k, 1 + floor(${r(S.orderItems)} * 3)::int as item_count,
           c.id as customer_id,
           coalesce(c.name, g.first_name || ' ' || g.last_name) as customer_name,
           case when c.id is not null then c.email
                when ${r(S.guestEmail)} < 0.05 then null
                else ${emailLocalPart('g.first_name', 'g.last_name')}
                     || case when ${r(S.guestNumber)} < 0.5
                             then floor(${r(S.guestNumber)} * 200)::int::text else '' end
                     || '@' || ${emailDomain(seed, 'o.n', S.guestDomain)} end as customer_email
    from (select n, ${start} + ((n + 0.5) / ${orders}) * (${ctx.asOf} - ${start}) as created_at,
                 ${rnd(seed, 'n', S.orderStatus)} < 0.06 as canceled
          from generate_series(${lo}, ${hi - 1}) n) o
    cross join lateral (
      select e.n, e.k, e.experience_n, e.starts_at from s_events e
      where e.pick_at >= least(
              o.created_at + interval '2 hours' + power(${r(S.orderLead)}, 2) * interval '120 days',
              (select max(pick_at) from s_events))
      order by e.pick_at limit 1) f
    left join s_customers c
      on ${r(S.orderCustomer)} < 0.35
     and c.n = floor(power(${r(S.orderCustomerNumber)}, 1.3) * ${customers})::int
    cross join lateral (select ${nameColumns(seed, 'o.n', { first: S.guestFirst, last: S.guestLast })}) g`);
  await ctx.run(`
    create temp table s_items as
    select o.n as order_n, j, e.id as event_id, e.experience_id, e.seller_id, x.name,
           x.timezone, x.price, x.price_type, x.currency, e.local_start, e.starts_at,
           e.arrival_time,
           1 + floor(power(${rnd(seed, 'o.n * 4 + j', S.itemQuantity)}, 2.5) * 6)::int as quantity
    from s_orders o
    join s_experiences x on x.n = o.experience_n
    cross join lateral generate_series(0, least(o.item_count, x.n_events - o.k) - 1) j
    join s_events e on e.n = x.event_offset + o.k + j`);
  await ctx.run(`
    insert into orders (id, seller_id, customer_id, customer_name, customer_email, status,
                        arrival, amount, currency, short_code, created_at, updated_at)
    select o.id, a.seller_id, o.customer_id, o.customer_name, o.customer_email, o.status,
           a.arrival, a.amount, a.currency, ${shortCodeSql('o.n')}, o.created_at, o.updated_at
    from s_orders o
    join (select order_n, min(seller_id) as seller_id, min(local_start)::date as arrival,
                 min(currency) as currency,
                 sum(case when price_type = 'person' then price * quantity else price end)
                   as amount
          from s_items group by order_n) a on a.order_n = o.n
    order by o.n`);
  await ctx.run(`
    insert into order_items (id, order_id, seller_id, customer_id, experience_id, event_id,
                             name, arrival, arrival_time, arrival_datetime, timezone, quantity,
                             price, amount, status, ticket_code, position)
    select ${idSql('o.created_at', TAG.item, 'i.order_n * 3 + i.j')}, o.id, i.seller_id,
           o.customer_id, i.experience_id, i.event_id, i.name, i.local_start::date,
           i.arrival_time, i.starts_at, i.timezone, i.quantity, i.price,
           case when i.price_type = 'person' then i.price * i.quantity else i.price end,
           case when o.status = 'canceled' then 700 else 200 end,
           md5(${seed}::text || ':' || i.order_n || ':' || i.j), i.j
    from s_items i join s_orders o on o.n = i.order_n
    order by i.order_n, i.j`);
  // A guest per seat, as a booking makes them (issue 29): pending, canceled with its order.
  await ctx.run(`
    insert into order_guests (id, order_id, item_id, seller_id, event_id, demographic_id,
                              ticket_code, status, position, created_at, canceled_at)
    select ${idSql('o.created_at', TAG.guest, '(i.order_n * 3 + i.j) * 8 + g.n')}, o.id,
           ${idSql('o.created_at', TAG.item, 'i.order_n * 3 + i.j')}, i.seller_id, i.event_id,
           null,
           lpad(to_hex(floor(extract(epoch from o.created_at))::bigint), 8, '0')
             || left(md5(${seed}::text || ':' || i.order_n || ':' || i.j || ':' || g.n), 24),
           'pending', g.n, o.created_at,
           case when o.status = 'canceled' then o.updated_at end
    from s_items i join s_orders o on o.n = i.order_n
    cross join generate_series(0, i.quantity - 1) as g(n)
    order by i.order_n, i.j, g.n`);
  await ctx.run(`drop table s_items, s_orders`);
}

/** Reserved seats from the confirmed items; capacity raised where bookings exceeded it. */
export async function settleEvents(ctx: SeedContext): Promise<void> {
  await ctx.run(`
    update events e
    set reserved = s.seats,
        max = case when e.max is null then null else greatest(e.max, s.seats) end
    from (select event_id, sum(quantity)::int as seats from order_items
          where status = 200 group by event_id) s
    where e.id = s.event_id`);
}
