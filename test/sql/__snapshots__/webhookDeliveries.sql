-- fanOut
select "id", "seq", "name", "seller_id", object->>'id' as "object_id", object->'experience'->>'id' as "experience_id" from "domain_events" where not fanned_out order by "seq" limit $1 for update skip locked;

-- claimDue
with recursive "pending_hooks"("hook_id") as (select min("w"."hook_id") as "hook_id" from "webhook_deliveries" as "w" where "w"."status" = 'pending' union all select (select min("w"."hook_id") as "next" from "webhook_deliveries" as "w" where "w"."status" = 'pending' and "w"."hook_id" > "p"."hook_id") as "hook_id" from "pending_hooks" as "p" where "p"."hook_id" is not null), "due" as (select "d"."id", "d"."next_attempt_at", "d"."event_seq", "h"."url", "h"."owner_id", "h"."reseller_id", (case when h.reseller_id is null then 'owner ' else 'resellers ' end || h.owner_id) as "budget", row_number() over (partition by (case when h.reseller_id is null then 'owner ' else 'resellers ' end || h.owner_id) order by d.next_attempt_at, d.event_seq) as "turn" from "pending_hooks" as "p" inner join "hooks" as "h" on "h"."id" = "p"."hook_id" inner join lateral (select "d"."id", "d"."next_attempt_at", "d"."event_seq" from "webhook_deliveries" as "d" where "d"."hook_id" = "h"."id" and "d"."status" = 'pending' and "d"."next_attempt_at" <= now() and ("d"."locked_until" is null or "d"."locked_until" <= now()) order by "d"."next_attempt_at", "d"."event_seq" limit $1) as "d" on true where "h"."status" = $2) select "id", "url", "owner_id", "reseller_id" from "due" order by coalesce(($3::jsonb ->> budget)::int, 0) + turn, "next_attempt_at", "event_seq" limit $4;

-- release
update "webhook_deliveries" set "attempts" = "attempts" - $1, "locked_until" = $2, "next_attempt_at" = now() + cast($3 as double precision) * interval '1 millisecond' where "id" = $4 and "attempts" = $5 and "status" = $6;

-- record
update "webhook_deliveries" set "status" = $1, "last_status" = $2, "locked_until" = $3, "updated_at" = now(), "next_attempt_at" = case when round_start = attempts then next_attempt_at else now() + cast($4 as double precision) * interval '1 millisecond' end where "id" = $5 and "attempts" = $6 and "status" = $7 returning round_start = attempts as "resent";

-- recordGiveUp
select "id" from "hooks" where "id" = $1 for update;
update "webhook_deliveries" set "status" = case when round_start = attempts then 'pending' else $1 end, "last_status" = $2, "locked_until" = $3, "updated_at" = now() where "id" = $4 and "attempts" = $5 and "status" = $6 returning round_start = attempts as "resent";

-- recordDelivered
update "webhook_deliveries" set "status" = case when round_start = attempts then 'pending' else $1 end, "last_status" = $2, "locked_until" = $3, "updated_at" = now(), "delivered_at" = now() where "id" = $4 and "attempts" = $5 and "status" = $6 returning round_start = attempts as "resent";

-- pruneDeliveries
delete from "webhook_deliveries" where id in ((select "id" from "webhook_deliveries" where "id" < lpad(to_hex(floor(extract(epoch from now()) - $1::double precision)::bigint), 8, '0') and "status" in ($2, $3) and "updated_at" < now() - cast($4 as double precision) * interval '1 millisecond' order by id limit $5 for update skip locked));

-- pruneEvents
delete from "domain_events" where id in ((select "e"."id" from "domain_events" as "e" where "e"."id" < lpad(to_hex(floor(extract(epoch from now()) - $1::double precision)::bigint), 8, '0') and "e"."fanned_out" = $2 and "e"."created_at" < now() - cast($3 as double precision) * interval '1 millisecond' and not exists (select 1 as "one" from "webhook_deliveries" as "d" where "d"."event_id" = "e"."id") order by id limit $4 for update skip locked));

-- listSource.rows
select "w".* from "webhook_deliveries" as "w" where (("w"."hook_id" in ($1))) order by "w"."created_at" desc, "w"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "webhook_deliveries" as "w" where (("w"."hook_id" in ($1)));
