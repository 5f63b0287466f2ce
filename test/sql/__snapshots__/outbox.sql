-- pendingStats
select count(*) as "pending", extract(epoch from now() - min(created_at)) as "oldest" from "outbox" where "status" = $1;

-- claimDue
update "outbox" set "attempts" = "attempts" + $1, "locked_until" = now() + cast($2 as double precision) * interval '1 millisecond' where "id" in (select "id" from "outbox" where "status" = $3 and "next_attempt_at" <= now() and ("locked_until" is null or "locked_until" <= now()) order by "next_attempt_at", "id" limit $4 for update skip locked) returning *;

-- markSent
update "outbox" set "status" = $1, "sent_at" = now(), "locked_until" = $2, "last_error" = $3, "secret" = $4 where "id" = $5 and "status" <> $6;

-- markFailed
update "outbox" set "status" = $1, "last_error" = $2, "locked_until" = $3, "next_attempt_at" = now() + cast($4 as double precision) * interval '1 millisecond' where "id" = $5 and "attempts" = $6 and "status" = $7;

-- markFailedGiveUp
update "outbox" set "status" = $1, "last_error" = $2, "locked_until" = $3 where "id" = $4 and "attempts" = $5 and "status" = $6;

-- putBack
update "outbox" set "attempts" = "attempts" - $1, "last_error" = $2, "locked_until" = $3, "next_attempt_at" = now() + cast($4 as double precision) * interval '1 millisecond' where "id" = $5 and "attempts" = $6 and "status" = $7;

-- requeueFailed
update "outbox" set "status" = $1, "attempts" = $2, "locked_until" = $3, "next_attempt_at" = now() where "status" = $4 and "id" in ($5) returning "id";

-- markSkipped
update "outbox" set "status" = $1, "locked_until" = $2, "secret" = $3 where "id" = $4 and "status" = $5;

-- find
select "status", "recipient" from "outbox" where "order_id" = $1 and "kind" = $2;

-- listUnsent
select * from "outbox" where "status" not in ($1, $2) order by "created_at", "id" limit $3;

-- prune
delete from "outbox" where id in ((select "id" from "outbox" where (kind <> 'order_confirmation' or status = 'skipped') and "id" < lpad(to_hex(floor(extract(epoch from now()) - $1::double precision)::bigint), 8, '0') and "status" in ($2, $3, $4) and "created_at" < now() - cast($5 as double precision) * interval '1 millisecond' order by id limit $6 for update skip locked));

-- enqueue
insert into "outbox" ("id", "kind", "order_id", "hook_id", "recipient", "sender_id") values ($1, $2, $3, $4, $5, $6) on conflict ("order_id", "kind") do nothing returning "id";
select "id" from "outbox" where "order_id" = $1 and "kind" = $2;

-- queue
insert into "outbox" ("id", "kind", "order_id", "hook_id", "recipient", "sender_id") values ($1, $2, $3, $4, $5, $6) on conflict ("order_id", "kind") do nothing;

-- settleConfirmation
update "outbox" set "status" = $1 where "order_id" = $2 and "kind" = $3 and "status" = $4 and ("locked_until" is null or "locked_until" <= now());
select "status", "recipient" from "outbox" where "order_id" = $1 and "kind" = $2;

-- readdressConfirmation
update "outbox" set "recipient" = $1, "sender_id" = $2 where "order_id" = $3 and "kind" = $4 and "status" = $5 and ("locked_until" is null or "locked_until" <= now());

-- sentToOthersLastHour
select pg_advisory_xact_lock(hashtext($1));
select count(*) as "n" from "outbox" where "sender_id" = $1 and lower("recipient") <> $2 and "created_at" > now() - interval '1 hour';

-- sellerConfirmationsLastDay
select lower("email") as "address" from "users" where "id" in (select $1::text as "id" union all select "user_id" as "id" from "delegates" where "seller_id" = $2 and "user_id" is not null) and lower("email") = $3;
select pg_advisory_xact_lock(hashtext($1));
select count(*) as "n" from "outbox" as "o" inner join "orders" as "r" on "r"."id" = "o"."order_id" where "o"."kind" = $1 and "o"."sender_id" in (select $2::text as "id" union all select "user_id" as "id" from "delegates" where "seller_id" = $3 and "user_id" is not null union all select "id" from "publishable_keys" where "seller_id" = $4) and "o"."created_at" > now() - interval '1 day' and "r"."seller_id" = $5 and lower("o"."recipient") not in (select lower("email") as "address" from "users" where "id" in (select $6::text as "id" union all select "user_id" as "id" from "delegates" where "seller_id" = $7 and "user_id" is not null));

-- sentToRecipientLastDay
select pg_advisory_xact_lock(hashtext($1));
select count(*) as "n" from "outbox" where "sender_id" = $1 and "kind" = $2 and lower("recipient") = $3 and "created_at" > now() - interval '1 day';

-- invitationsLastHour
select pg_advisory_xact_lock(hashtext($1));
select count(*) as "all_n", count(*) filter (where lower(recipient) = $1) as "to_n", coalesce(extract(epoch from min(created_at) + interval '1 hour' - now()) * 1000, 0) as "all_free", coalesce(extract(epoch from min(created_at) filter (where lower(recipient) = $2) + interval '1 hour' - now()) * 1000, 0) as "to_free" from "outbox" where "kind" = $3 and "sender_id" = $4 and "created_at" > now() - interval '1 hour';

-- queueInvitation
update "outbox" set "status" = $1, "secret" = $2 where "delegate_id" = $3 and "kind" = $4 and "status" = $5 and ("locked_until" is null or "locked_until" <= now());
insert into "outbox" ("id", "kind", "delegate_id", "recipient", "sender_id", "secret") values ($1, $2, $3, $4, $5, $6);

-- sealedInvitationTokens
select "id", "secret" from "outbox" where "secret" is not null and "id" > $1 order by "id" limit $2;

-- writeSealedInvitationToken
update "outbox" set "secret" = $1 where "id" = $2 and "secret" is not null;
