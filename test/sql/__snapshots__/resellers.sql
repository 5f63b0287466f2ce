-- insert
insert into "reseller_credentials" ("created_at", "id", "seller_id", "name", "key_digest", "key_ciphertext", "commission_bps", "created_by") values ($1, $2, $3, $4, $5, $6, $7, $8) returning *;

-- findLiveByDigest
select "r".* from "reseller_credentials" as "r" inner join "users" as "u" on "u"."id" = "r"."seller_id" where "r"."key_digest" = $1 and "r"."revoked_at" is null and 'ROLE_SELLER' = any(u.roles);

-- findById
select * from "reseller_credentials" where "id" = $1;

-- revoke
update "reseller_credentials" set "revoked_at" = $1 where "seller_id" = $2 and "id" = $3 and "revoked_at" is null returning *;

-- revokeMadeBy
update "reseller_credentials" set "revoked_at" = $1 where "seller_id" = $2 and "created_by" = $3 and "revoked_at" is null returning "id";

-- sealedKeys
select "id", "key_ciphertext" from "reseller_credentials" where "id" > $1 order by "id" limit $2;

-- setSealedKey
update "reseller_credentials" set "key_ciphertext" = $1 where "id" = $2 and "key_ciphertext" = $3;

-- listSource.rows
select "r".* from "reseller_credentials" as "r" where (("r"."seller_id" in ($1))) order by "r"."created_at" desc, "r"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "reseller_credentials" as "r" where (("r"."seller_id" in ($1)));
