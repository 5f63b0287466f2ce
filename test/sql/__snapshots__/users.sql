-- insert
insert into "users" ("created_at", "updated_at", "id", "name", "email", "password_hash", "roles", "api_key_digest", "api_key_ciphertext", "api_version") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *;

-- findById
select * from "users" where "id" = $1;

-- findByEmail
select * from "users" where lower("email") = $1;

-- findCallerByApiKeyDigest
select "u"."id", "u"."name", "u"."email", "u"."roles", "u"."api_version", "u"."api_key_digest", coalesce((select json_agg(json_build_object('sellerId', d.seller_id, 'roles', d.roles)) from delegates d where d.user_id = u.id and (d.email is null or d.accepted_at is not null)), '[]'::json) as "delegations" from "users" as "u" where "u"."api_key_digest" = $1;

-- findCallerByEmail
select "u"."id", "u"."name", "u"."email", "u"."roles", "u"."api_version", "u"."api_key_digest", coalesce((select json_agg(json_build_object('sellerId', d.seller_id, 'roles', d.roles)) from delegates d where d.user_id = u.id and (d.email is null or d.accepted_at is not null)), '[]'::json) as "delegations", "u"."password_hash" from "users" as "u" where lower("u"."email") = $1;

-- notify
select pg_notify($1, $2);

-- replaceApiKey
update "users" set "api_key_digest" = $1, "api_key_ciphertext" = $2, "updated_at" = greatest($3::timestamptz, "users"."updated_at" + interval '1 millisecond') where "id" = $4 and "api_key_digest" = $5;

-- setPassword
update "users" set "password_hash" = $1, "updated_at" = greatest($2::timestamptz, "users"."updated_at" + interval '1 millisecond') where "id" = $3;

-- findSellers
select "id", "name", "email" from "users" where "id" in ($1, $2) and 'ROLE_SELLER' = any(roles);

-- listSource.rows
select "u"."id", "u"."name", "u"."email" from "users" as "u" where 'ROLE_SELLER' = any(u.roles) and (lower("u"."name" collate "und-x-icu") like $1 and ("u"."id" in ($2))) order by "u"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "users" as "u" where 'ROLE_SELLER' = any(u.roles) and (lower("u"."name" collate "und-x-icu") like $1 and ("u"."id" in ($2)));

-- updateProfile
update "users" set "name" = $1, "email" = $2, "updated_at" = greatest($3::timestamptz, "users"."updated_at" + interval '1 millisecond') where "id" = $4;

-- lockMetadata
select "metadata" from "users" where "id" = $1 for update;

-- sealedKeys
select "id", "api_key_ciphertext" from "users" where "id" > $1 order by "id" limit $2;

-- setSealedKey
update "users" set "api_key_ciphertext" = $1 where "id" = $2 and "api_key_ciphertext" = $3;

-- writeMetadata
update "users" set "metadata" = $1, "updated_at" = greatest($2::timestamptz, "users"."updated_at" + interval '1 millisecond') where "id" = $3;
