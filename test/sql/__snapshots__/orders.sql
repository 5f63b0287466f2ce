-- insert
insert into "orders" ("id", "seller_id", "customer_id", "customer_name", "customer_email", "status", "arrival", "amount", "currency") values ($1, $2, $3, $4, $5, $6, $7, $8, $9);
insert into "order_items" ("id", "order_id", "seller_id", "customer_id", "experience_id", "event_id", "name", "arrival", "arrival_time", "arrival_datetime", "timezone", "quantity", "price", "amount", "status") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15);

-- findWithItems
select "o".*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items" from "orders" as "o" where "o"."id" = $1;

-- findById
select * from "orders" where "id" = $1;

-- lock
select * from "orders" where "id" = $1 for update;

-- markCanceled
update "orders" set "status" = $1, "updated_at" = $2 where "id" = $3;
update "order_items" set "status" = $1 where "order_id" = $2;

-- itemsOf
select * from "order_items" where "order_id" in ($1, $2) order by "id";

-- hasCustomerAtSeller
select "id" from "orders" where "customer_id" = $1 and "seller_id" = $2 limit $3;

-- listSource.rows
select "o".*, coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]'::json) as "items" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4))))) order by "o"."id" desc limit $5 offset $6;

-- listSource.count
select count(*) as "n" from "orders" as "o" where (("o"."seller_id" in ($1)) and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and ("i"."seller_id" in ($4)))));
