-- insert
insert into "order_guests" ("id", "order_id", "item_id", "seller_id", "event_id", "demographic_id", "ticket_code", "status", "checked_in_at", "checked_in_by", "position", "created_at", "canceled_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- liveOf
select * from "order_guests" where "order_id" = $1 and "canceled_at" is null order by "position", "id";

-- allOf
select * from "order_guests" where "order_id" in ($1, $2) order by "item_id", "position", "id";

-- findByTicketCode
select * from "order_guests" where "ticket_code" = $1;

-- findCode

        select 'guest' as kind, g.id, g.order_id, g.seller_id
          from order_guests g where g.ticket_code = $1
        union all
        select 'item', i.id, i.order_id, i.seller_id from order_items i where i.ticket_code = $2
        union all
        select 'order', o.id, o.id, o.seller_id from orders o
         where o.short_code = $3 and o.seller_id in ($4, $5);

-- findCode all

        select 'guest' as kind, g.id, g.order_id, g.seller_id
          from order_guests g where g.ticket_code = $1
        union all
        select 'item', i.id, i.order_id, i.seller_id from order_items i where i.ticket_code = $2
        union all
        select 'order', o.id, o.id, o.seller_id from orders o
         where o.short_code = $3 and true;

-- atEvent
select "g".*, "o"."short_code", "o"."customer_name", "o"."notes", "i"."status" as "item_status", "i"."demographics" as "item_demographics" from "order_guests" as "g" inner join "orders" as "o" on "o"."id" = "g"."order_id" inner join "order_items" as "i" on "i"."id" = "g"."item_id" where "g"."event_id" = $1 and "g"."canceled_at" is null order by "o"."customer_name", "o"."id", "i"."position", "g"."position";

-- cancel
update "order_guests" set "canceled_at" = $1 where "id" in ($2, $3) and "canceled_at" is null;

-- cancelOfOrder
update "order_guests" set "canceled_at" = $1 where "order_id" = $2 and "canceled_at" is null;

-- moveTo
update "order_guests" set "event_id" = $1 where "id" in ($2);

-- setStatus
update "order_guests" set "status" = $1, "checked_in_at" = $2, "checked_in_by" = $3 where "id" in ($4) and "canceled_at" is null;
