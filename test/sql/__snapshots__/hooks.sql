-- insert
insert into "hooks" ("created_at", "updated_at", "id", "owner_id", "event_name", "url", "secret_ciphertext", "api_version", "created_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict on constraint "hooks_owner_event_url" do nothing returning *;

-- lockOwner
select pg_advisory_xact_lock(hashtext($1));

-- sealedSecrets
select "id", "secret_ciphertext" from "hooks" where "id" > $1 order by "id" limit $2;

-- setSealedSecret
update "hooks" set "secret_ciphertext" = $1 where "id" = $2 and "secret_ciphertext" = $3;

-- countOf
select count(*) as "n" from "hooks" where "owner_id" = $1 and "reseller_id" is null;

-- find
select * from "hooks" where "owner_id" = $1 and "reseller_id" is null and "id" = $2;

-- findById
select * from "hooks" where "id" = $1;

-- remove
delete from "hooks" where "owner_id" = $1 and "reseller_id" is null and "id" = $2;

-- setSecret
update "hooks" set "secret_ciphertext" = $1, "updated_at" = greatest($2::timestamptz, "hooks"."updated_at" + interval '1 millisecond') where "id" = $3;

-- setStatus
update "hooks" set "status" = $1, "disabled_at" = now(), "updated_at" = greatest($2::timestamptz, "hooks"."updated_at" + interval '1 millisecond') where "id" = $3 returning *;

-- disableFailing
update "hooks" set "status" = $1, "disabled_at" = now(), "updated_at" = greatest($2::timestamptz, "hooks"."updated_at" + interval '1 millisecond') where "id" = $3 and "status" = $4 returning *;

-- disableMadeBy
update "hooks" set "status" = $1, "disabled_at" = now(), "updated_at" = greatest($2::timestamptz, "hooks"."updated_at" + interval '1 millisecond') where "owner_id" = $3 and "reseller_id" is null and "created_by" = $4 and "status" = $5 returning "id";

-- attemptsOf
select * from "webhook_attempts" where "delivery_id" in ($1, $2) order by "delivery_id", "attempt";

-- resend
update "webhook_deliveries" set "status" = $1, "round_start" = "attempts", "next_attempt_at" = now(), "locked_until" = case when locked_until > now() then locked_until end, "updated_at" = now() where "hook_id" = $2 and "id" = $3 returning *;

-- listSource.rows
select "h".* from "hooks" as "h" where "h"."reseller_id" is null and (("h"."owner_id" in ($1))) order by "h"."created_at" desc, "h"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "hooks" as "h" where "h"."reseller_id" is null and (("h"."owner_id" in ($1)));
