-- insert
insert into "checkins" ("id", "seller_id", "guest_id", "order_id", "event_id", "source", "created_at", "created_by", "undone_at", "undone_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- findById
select * from "checkins" where "id" = $1;

-- liveOf
select * from "checkins" where "guest_id" in ($1, $2) and "undone_at" is null;

-- undo
update "checkins" set "undone_at" = $1, "undone_by" = $2 where "id" in ($3) and "undone_at" is null;

-- listSource.rows
select "c".*, "g"."ticket_code", "g"."demographic_id", "g"."item_id", "o"."short_code", "o"."customer_name", "i"."arrival", "i"."arrival_time", "i"."demographics" as "item_demographics" from "checkins" as "c" inner join "order_guests" as "g" on "g"."id" = "c"."guest_id" inner join "order_items" as "i" on "i"."id" = "g"."item_id" inner join "orders" as "o" on "o"."id" = "c"."order_id" where ("c"."undone_at" is null and ("c"."seller_id" in ($1))) order by "c"."created_at" desc, "c"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "checkins" as "c" inner join "order_guests" as "g" on "g"."id" = "c"."guest_id" inner join "order_items" as "i" on "i"."id" = "g"."item_id" inner join "orders" as "o" on "o"."id" = "c"."order_id" where ("c"."undone_at" is null and ("c"."seller_id" in ($1)));
