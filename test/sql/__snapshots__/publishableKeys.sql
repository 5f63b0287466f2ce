-- insert
insert into "publishable_keys" ("created_at", "id", "seller_id", "key", "label", "created_by") values ($1, $2, $3, $4, $5, $6) returning *;

-- findLive
select * from "publishable_keys" where "key" = $1 and "revoked_at" is null;

-- revoke
update "publishable_keys" set "revoked_at" = $1 where "seller_id" = $2 and "id" = $3 and "revoked_at" is null returning *;

-- revokeMadeBy
update "publishable_keys" set "revoked_at" = $1 where "seller_id" = $2 and "created_by" = $3 and "revoked_at" is null returning "id";

-- listSource.rows
select "k".* from "publishable_keys" as "k" where (("k"."seller_id" in ($1))) order by "k"."created_at" desc, "k"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "publishable_keys" as "k" where (("k"."seller_id" in ($1)));
