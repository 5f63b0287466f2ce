-- claimDue
update "outbox" set "attempts" = "attempts" + $1, "locked_until" = now() + cast($2 as double precision) * interval '1 millisecond' where "id" in (select "id" from "outbox" where "status" = $3 and "next_attempt_at" <= now() and ("locked_until" is null or "locked_until" <= now()) order by "next_attempt_at", "id" limit $4 for update skip locked) returning *;

-- markSent
update "outbox" set "status" = $1, "sent_at" = now(), "locked_until" = $2, "last_error" = $3 where "id" = $4 and "status" <> $5;

-- markFailed
update "outbox" set "status" = $1, "last_error" = $2, "locked_until" = $3, "next_attempt_at" = now() + cast($4 as double precision) * interval '1 millisecond' where "id" = $5 and "attempts" = $6 and "status" = $7;

-- listUnsent
select * from "outbox" where "status" <> $1 order by "created_at", "id" limit $2;
