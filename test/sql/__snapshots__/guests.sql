-- insert
insert into "order_guests" ("id", "order_id", "item_id", "seller_id", "event_id", "demographic_id", "ticket_code", "status", "checked_in_at", "checked_in_by", "position", "created_at", "canceled_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- liveOf
select * from "order_guests" where "order_id" = $1 and "canceled_at" is null order by "position", "id";

-- allOf
select * from "order_guests" where "order_id" in ($1, $2) order by "item_id", "position", "id";

-- findByTicketCode
select * from "order_guests" where "ticket_code" = $1;

-- cancel
update "order_guests" set "canceled_at" = $1 where "id" in ($2, $3) and "canceled_at" is null;

-- cancelOfOrder
update "order_guests" set "canceled_at" = $1 where "order_id" = $2 and "canceled_at" is null;

-- moveTo
update "order_guests" set "event_id" = $1 where "id" in ($2);

-- setStatus
update "order_guests" set "status" = $1, "checked_in_at" = $2, "checked_in_by" = $3 where "id" in ($4) and "canceled_at" is null;
