-- claim
insert into "idempotency_keys" ("scope", "key", "fingerprint", "status") values ($1, $2, $3, $4) on conflict ("scope", "key") do nothing returning "locked_at";

-- find
select * from "idempotency_keys" where "scope" = $1 and "key" = $2;

-- takeOver
update "idempotency_keys" set "locked_at" = $1 where "scope" = $2 and "key" = $3 and "status" = $4 and "locked_at" < now() - $5::interval returning "locked_at";

-- complete
update "idempotency_keys" set "status" = case when status = 'running' and locked_at = $1
            then 'done' else 'taken over' end, "response_status" = $2, "response_body" = $3 where "scope" = $4 and "key" = $5;

-- forget
delete from "idempotency_keys" where "scope" = $1 and "key" = $2 and "status" = $3 and "locked_at" = $4;

-- expire
delete from "idempotency_keys" where "scope" = $1 and "key" = $2 and "created_at" < now() - $3::interval;

-- prune
delete from "idempotency_keys" where ("scope", "key") in (select "scope", "key" from "idempotency_keys" where "created_at" < now() - cast($1 as double precision) * interval '1 millisecond' order by "created_at" limit $2 for update skip locked);
