-- insert
insert into "orders" ("id", "seller_id", "customer_id", "customer_name", "customer_email", "phone", "source", "status", "short_code", "arrival", "amount", "currency", "payment_method", "notes", "adjustments", "hold_expires_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18);

-- insertItems
insert into "order_items" ("id", "order_id", "seller_id", "customer_id", "experience_id", "event_id", "name", "arrival", "arrival_time", "arrival_datetime", "timezone", "quantity", "price", "amount", "status", "ticket_code", "demographics", "position") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18);

-- update
update "orders" set "customer_id" = $1, "customer_name" = $2, "customer_email" = $3, "phone" = $4, "source" = $5, "status" = $6, "short_code" = $7, "arrival" = $8, "amount" = $9, "currency" = $10, "payment_method" = $11, "notes" = $12, "adjustments" = $13, "hold_expires_at" = $14, "updated_at" = $15 where "id" = $16;

-- updateItem
update "order_items" set "seller_id" = $1, "customer_id" = $2, "experience_id" = $3, "event_id" = $4, "name" = $5, "arrival" = $6, "arrival_time" = $7, "arrival_datetime" = $8, "timezone" = $9, "quantity" = $10, "price" = $11, "amount" = $12, "status" = $13, "ticket_code" = $14, "demographics" = $15 where "id" = $16;

-- holdsDue
select "id" from "orders" where "hold_expires_at" <= $1 order by "hold_expires_at" limit $2;

-- findWithItems
select "o".*, coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items", coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json) as "guests" from "orders" as "o" where "o"."id" = $1;

-- findJson
select "o"."seller_id", "o"."customer_id", (json_build_object('object', 'order'::text, 'id', o.id, 'seller', json_build_object('id', o.seller_id), 'customer', case when o.customer_id is null then null else json_build_object('id', o.customer_id) end, 'customerName', o.customer_name, 'customerEmail', o.customer_email, 'phone', o.phone, 'source', o.source, 'status', o.status, 'shortCode', o.short_code, 'arrival', o.arrival, 'amount', o.amount, 'currency', o.currency, 'payment', case when o.payment_method is not null then json_build_object('method', o.payment_method) end, 'notes', case when o.notes = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('text', (e0 -> 'text')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(o.notes) = 'array' then o.notes else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'adjustments', case when o.adjustments = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('amount', (e0 -> 'amount'), 'reason', (e0 -> 'reason'), 'createdAt', (e0 -> 'createdAt')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(o.adjustments) = 'array' then o.adjustments else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'holdExpiresAt', to_char(o.hold_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'items', coalesce((select json_agg(json_build_object('id', i.id, 'experience', json_build_object('id', i.experience_id), 'event', json_build_object('id', i.event_id), 'name', i.name, 'arrival', i.arrival, 'arrivalTime', i.arrival_time, 'arrivalDatetime', (to_char((i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)), 'YYYY-MM-DD"T"HH24:MI') || to_char((i.arrival_datetime at time zone 'UTC'), ':SS') || case when lower(i.timezone) in ('utc', 'gmt') then 'Z' else case when (extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60) < 0 then '-' else '+' end || to_char(abs((extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60)) / 60, 'FM00') || ':' || to_char(abs((extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60)) % 60, 'FM00') end), 'quantity', i.quantity, 'demographics', case when i.demographics = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('demographic', case when jsonb_typeof((e0 -> 'demographic')) = 'object' then json_build_object('id', ((e0 -> 'demographic') -> 'id')) end, 'label', (e0 -> 'label'), 'code', (e0 -> 'code'), 'quantity', (e0 -> 'quantity'), 'price', (e0 -> 'price'), 'amount', (e0 -> 'amount')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(i.demographics) = 'array' then i.demographics else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'lineItems', case when jsonb_array_length(i.demographics) = 0
  then json_build_array(json_build_object('object', 'lineitem_demographic'::text, 'demographic', null, 'quantity', i.quantity, 'price', i.price, 'amount', i.amount))
  else (select json_agg(json_build_object('object', 'lineitem_demographic'::text, 'demographic', case when jsonb_typeof((l -> 'demographic')) = 'object' then json_build_object('id', ((l -> 'demographic') -> 'id')) end, 'quantity', (l -> 'quantity'), 'price', (l -> 'price'), 'amount', (l -> 'amount')) order by n) from jsonb_array_elements(i.demographics) with ordinality as d(l, n)) end, 'price', i.price, 'amount', i.amount, 'shortCode', o.short_code, 'status', i.status, 'ticketCode', i.ticket_code, 'guests', coalesce(g.list, '[]'::json), 'guestStatus', g.status) order by i.position, i.id) from order_items i
    left join lateral (select json_agg(json_build_object('id', g.id, 'demographic', case when g.demographic_id is null then null else json_build_object('id', g.demographic_id) end, 'ticketCode', g.ticket_code, 'guestStatus', g.status) order by g.position, g.id) as list,
  case when count(*) = 0 or bool_or(g.status = 'pending') then 'pending'
    when bool_or(g.status = 'arrived') then 'arrived' else 'no_show' end as status
  from order_guests g where g.order_id = o.id and g.item_id = i.id and g.canceled_at is null) g on true where i.order_id = o.id), '[]'::json), 'createdAt', to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(o.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text as "json" from "orders" as "o" where "o"."id" = $1;

-- findById
select * from "orders" where "id" = $1;

-- lock
select * from "orders" where "id" = $1 for update;

-- markCanceled
update "orders" set "status" = $1, "hold_expires_at" = $2, "updated_at" = greatest($3::timestamptz, "orders"."updated_at" + interval '1 millisecond') where "id" = $4;
update "order_items" set "status" = $1 where "order_id" = $2;

-- touch
update "orders" set "updated_at" = greatest($1::timestamptz, "orders"."updated_at" + interval '1 millisecond') where "id" = $2;

-- itemsOf
select * from "order_items" where "order_id" in ($1, $2) order by "position", "id";

-- hasCustomerAtSeller
select "id" from "orders" where "customer_id" = $1 and "seller_id" = $2 limit $3;

-- listSource.rows
select "o".*, coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items", coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json) as "guests" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4))))) order by "o"."created_at" desc, "o"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4)))));

-- search listSource.rows
select "o".*, coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items", coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json) as "guests" from "orders" as "o" where ((("o"."seller_id" in ($1))) and o.id in (
    select id from orders where short_code = $2
    union all select order_id from order_items where ticket_code = $3
    union all select id from orders where lower("customer_name" collate "und-x-icu") like $4
    union all select id from orders where lower("customer_email" collate "und-x-icu") like $5)) order by (case when o.short_code = $6 or o.id in (select order_id from order_items where ticket_code = $7) then 0 else 1 end), "o"."created_at" desc, "o"."id" desc limit 21;

-- search listSource.count
select count(*) as "n" from "orders" as "o" where ((("o"."seller_id" in ($1))) and o.id in (
    select id from orders where short_code = $2
    union all select order_id from order_items where ticket_code = $3
    union all select id from orders where lower("customer_name" collate "und-x-icu") like $4
    union all select id from orders where lower("customer_email" collate "und-x-icu") like $5));

-- json listSource.rows
select string_agg(p.id, chr(1)) as "ids", string_agg(p.json, chr(1)) as "texts" from (select "o"."id" as "id", case when "o"."page_row" < 21 then (json_build_object('object', 'order'::text, 'id', o.id, 'seller', json_build_object('id', o.seller_id), 'customer', case when o.customer_id is null then null else json_build_object('id', o.customer_id) end, 'customerName', o.customer_name, 'customerEmail', o.customer_email, 'phone', o.phone, 'source', o.source, 'status', o.status, 'shortCode', o.short_code, 'arrival', o.arrival, 'amount', o.amount, 'currency', o.currency, 'payment', case when o.payment_method is not null then json_build_object('method', o.payment_method) end, 'notes', case when o.notes = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('text', (e0 -> 'text')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(o.notes) = 'array' then o.notes else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'adjustments', case when o.adjustments = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('amount', (e0 -> 'amount'), 'reason', (e0 -> 'reason'), 'createdAt', (e0 -> 'createdAt')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(o.adjustments) = 'array' then o.adjustments else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'holdExpiresAt', to_char(o.hold_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'items', coalesce((select json_agg(json_build_object('id', i.id, 'experience', json_build_object('id', i.experience_id), 'event', json_build_object('id', i.event_id), 'name', i.name, 'arrival', i.arrival, 'arrivalTime', i.arrival_time, 'arrivalDatetime', (to_char((i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)), 'YYYY-MM-DD"T"HH24:MI') || to_char((i.arrival_datetime at time zone 'UTC'), ':SS') || case when lower(i.timezone) in ('utc', 'gmt') then 'Z' else case when (extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60) < 0 then '-' else '+' end || to_char(abs((extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60)) / 60, 'FM00') || ':' || to_char(abs((extract(epoch from (i.arrival + make_interval(hours => i.arrival_time / 100, mins => i.arrival_time % 100)) - date_trunc('minute', (i.arrival_datetime at time zone 'UTC')))::int / 60)) % 60, 'FM00') end), 'quantity', i.quantity, 'demographics', case when i.demographics = '[]'::jsonb then '[]'::json else coalesce((select json_agg(case when jsonb_typeof(e0) = 'object' then json_build_object('demographic', case when jsonb_typeof((e0 -> 'demographic')) = 'object' then json_build_object('id', ((e0 -> 'demographic') -> 'id')) end, 'label', (e0 -> 'label'), 'code', (e0 -> 'code'), 'quantity', (e0 -> 'quantity'), 'price', (e0 -> 'price'), 'amount', (e0 -> 'amount')) end order by n0) from jsonb_array_elements(case when jsonb_typeof(i.demographics) = 'array' then i.demographics else '[]'::jsonb end) with ordinality as a0(e0, n0)), '[]'::json) end, 'lineItems', case when jsonb_array_length(i.demographics) = 0
  then json_build_array(json_build_object('object', 'lineitem_demographic'::text, 'demographic', null, 'quantity', i.quantity, 'price', i.price, 'amount', i.amount))
  else (select json_agg(json_build_object('object', 'lineitem_demographic'::text, 'demographic', case when jsonb_typeof((l -> 'demographic')) = 'object' then json_build_object('id', ((l -> 'demographic') -> 'id')) end, 'quantity', (l -> 'quantity'), 'price', (l -> 'price'), 'amount', (l -> 'amount')) order by n) from jsonb_array_elements(i.demographics) with ordinality as d(l, n)) end, 'price', i.price, 'amount', i.amount, 'shortCode', o.short_code, 'status', i.status, 'ticketCode', i.ticket_code, 'guests', coalesce(g.list, '[]'::json), 'guestStatus', g.status) order by i.position, i.id) from order_items i
    left join lateral (select json_agg(json_build_object('id', g.id, 'demographic', case when g.demographic_id is null then null else json_build_object('id', g.demographic_id) end, 'ticketCode', g.ticket_code, 'guestStatus', g.status) order by g.position, g.id) as list,
  case when count(*) = 0 or bool_or(g.status = 'pending') then 'pending'
    when bool_or(g.status = 'arrived') then 'arrived' else 'no_show' end as status
  from order_guests g where g.order_id = o.id and g.item_id = i.id and g.canceled_at is null) g on true where i.order_id = o.id), '[]'::json), 'createdAt', to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(o.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text else '' end as "json" from (select "p".*, row_number() over () as "page_row" from (select "o".* from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4))))) order by "o"."created_at" desc, "o"."id" desc limit 21) as "p") as "o") as "p";

-- json listSource.count
select count(*) as "n" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4)))));
