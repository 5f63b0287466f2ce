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

-- findById
select * from "orders" where "id" = $1;

-- lock
select * from "orders" where "id" = $1 for update;

-- markCanceled
update "orders" set "status" = $1, "hold_expires_at" = $2, "updated_at" = $3 where "id" = $4;
update "order_items" set "status" = $1 where "order_id" = $2;

-- itemsOf
select * from "order_items" where "order_id" in ($1, $2) order by "position", "id";

-- hasCustomerAtSeller
select "id" from "orders" where "customer_id" = $1 and "seller_id" = $2 limit $3;

-- listSource.rows
select "o".*, coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items", coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json) as "guests" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4))))) order by "o"."created_at" desc, "o"."id" desc limit $5 offset $6;

-- listSource.count
select count(*) as "n" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4)))));

-- search listSource.rows
select "o".*, coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items", coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json) as "guests" from "orders" as "o" where ((("o"."seller_id" in ($1))) and o.id in (
    select id from orders where short_code = $2
    union all select order_id from order_items where ticket_code = $3
    union all select id from orders where lower("customer_name" collate "und-x-icu") like $4
    union all select id from orders where lower("customer_email" collate "und-x-icu") like $5)) order by (case when o.short_code = $6 or o.id in (select order_id from order_items where ticket_code = $7) then 0 else 1 end), "o"."created_at" desc, "o"."id" desc limit $8 offset $9;

-- search listSource.count
select count(*) as "n" from "orders" as "o" where ((("o"."seller_id" in ($1))) and o.id in (
    select id from orders where short_code = $2
    union all select order_id from order_items where ticket_code = $3
    union all select id from orders where lower("customer_name" collate "und-x-icu") like $4
    union all select id from orders where lower("customer_email" collate "und-x-icu") like $5));
