-- insert
insert into "hooks" ("created_at", "updated_at", "id", "owner_id", "reseller_id", "event_name", "url", "secret_ciphertext", "api_version") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict on constraint "hooks_owner_event_url" do nothing returning *;

-- countOf
select count(*) as "n" from "hooks" where "reseller_id" = $1;

-- list
select * from "hooks" where "reseller_id" = $1 order by "created_at", "id";

-- remove
delete from "hooks" where "reseller_id" = $1 and "id" = $2;

-- removeAll
delete from "hooks" where "reseller_id" = $1;

-- bookersOf
select "order_id", "booker_id" from "reseller_bookings" where "order_id" in ($1, $2);

-- visibleOf
select "id" from "experiences" where "id" in ($1, $2) and "visible" = $3;

-- lockLiveCredential
select "id" from "reseller_credentials" where "id" = $1 and "revoked_at" is null for update;

-- findOwn
select * from "hooks" where "reseller_id" = $1 and "event_name" = $2 and "url" = $3;

-- reenable
update "hooks" set "status" = $1, "disabled_at" = $2, "secret_ciphertext" = $3, "updated_at" = greatest($4::timestamptz, "hooks"."updated_at" + interval '1 millisecond') where "id" = $5 and "status" = $6 returning *;

-- liveOf
select "id" from "reseller_credentials" where "id" in ($1, $2) and "revoked_at" is null;
