-- insert
insert into "checkins" ("id", "seller_id", "guest_id", "order_id", "event_id", "source", "created_at", "created_by", "undone_at", "undone_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- findById
select * from "checkins" where "id" = $1;

-- liveOf
select * from "checkins" where "guest_id" in ($1, $2) and "undone_at" is null;

-- undo
update "checkins" set "undone_at" = $1, "undone_by" = $2 where "id" in ($3) and "undone_at" is null;
