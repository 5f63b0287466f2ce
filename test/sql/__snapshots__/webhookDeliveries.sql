-- fanOut
select "id", "seq", "name", "seller_id", object->>'id' as "object_id", object->'experience'->>'id' as "experience_id" from "domain_events" where not fanned_out order by "seq" limit $1 for update skip locked;

-- claimDue
select "d"."id", "d"."hook_id", "h"."url", "h"."owner_id", "h"."reseller_id", "h"."status" as "hook_status" from "webhook_deliveries" as "d" inner join "hooks" as "h" on "h"."id" = "d"."hook_id" where "d"."status" = 'pending' and "d"."next_attempt_at" <= now() and ("d"."locked_until" is null or "d"."locked_until" <= now()) order by "d"."next_attempt_at", "d"."event_seq" limit $1;

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
