-- insert
insert into "reseller_bookings" ("order_id", "seller_id", "booker_id", "uuid", "request_digest", "reseller_reference", "contact", "confirmed_at", "ended_at", "end_reason") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- insertSeats
insert into "reseller_booking_seats" ("guest_id", "order_id", "uuid", "reseller_reference", "contact") values ($1, $2, $3, $4, $5);

-- replaceSeats
delete from "reseller_booking_seats" where "order_id" = $1;
insert into "reseller_booking_seats" ("guest_id", "order_id", "uuid", "reseller_reference", "contact") values ($1, $2, $3, $4, $5);

-- findByUuid
select * from "reseller_bookings" where "booker_id" = $1 and "uuid" = $2;

-- find
select * from "reseller_bookings" where "order_id" = $1;

-- update
update "reseller_bookings" set "confirmed_at" = $1, "contact" = $2 where "order_id" = $3;

-- markExpired
update "reseller_bookings" set "expired" = $1, "ended_at" = $2 where "order_id" = $3 and "ended_at" is null;

-- heldBy
select "b"."order_id" from "reseller_bookings" as "b" inner join "orders" as "o" on "o"."id" = "b"."order_id" where "b"."booker_id" = $1 and "b"."ended_at" is null and "o"."hold_expires_at" is not null order by "b"."order_id";

-- lockLiveCredential
select "id" from "reseller_credentials" where "id" = $1 and "revoked_at" is null for share;

-- guestsOf
select "g"."id", "g"."item_id", "g"."demographic_id", "g"."ticket_code", "g"."checked_in_at", "g"."canceled_at", "s"."uuid", "s"."reseller_reference", "s"."contact" from "order_guests" as "g" left join "reseller_booking_seats" as "s" on "s"."guest_id" = "g"."id" where "g"."order_id" = $1 order by "g"."position", "g"."id";

-- orderIds
select "b"."order_id", (select count(*) as "n" from "order_guests" as "g" where "g"."order_id" = "b"."order_id") as "guests" from "reseller_bookings" as "b" inner join "orders" as "o" on "o"."id" = "b"."order_id" where "b"."booker_id" = $1 and "b"."reseller_reference" = $2 order by "o"."created_at", "o"."id" limit $3;

-- orderIdsByCode
select "b"."order_id", (select count(*) as "n" from "order_guests" as "g" where "g"."order_id" = "b"."order_id") as "guests" from "reseller_bookings" as "b" inner join "orders" as "o" on "o"."id" = "b"."order_id" where "b"."booker_id" = $1 and "o"."short_code" = $2 order by "o"."created_at", "o"."id" limit $3;

-- orderIdsByDates
select "b"."order_id", (select count(*) as "n" from "order_guests" as "g" where "g"."order_id" = "b"."order_id") as "guests" from "reseller_bookings" as "b" inner join "orders" as "o" on "o"."id" = "b"."order_id" where "b"."booker_id" = $1 and exists (select 1 as "one" from "order_items" as "i" where "i"."order_id" = "b"."order_id" and "i"."arrival" >= $2 and "i"."arrival" <= $3) order by "o"."created_at", "o"."id" limit $4;
