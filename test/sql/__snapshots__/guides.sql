-- insert
insert into "guides" ("created_at", "updated_at", "id", "seller_id", "name", "schedules") values ($1, $2, $3, $4, $5, $6) returning *;

-- insertUnlessLinked
insert into "guides" ("created_at", "updated_at", "id", "seller_id", "user_id", "name", "schedules") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("seller_id", "user_id") where "deleted_at" is null do nothing returning *;

-- find
select "g".* from "guides" as "g" where "g"."deleted_at" is null and "g"."seller_id" = $1 and "g"."id" = $2;

-- lock
select "g".* from "guides" as "g" where "g"."deleted_at" is null and "g"."id" = $1 for update;

-- findMany
select * from "guides" where "id" in ($1, $2);

-- findByUser
select "g".* from "guides" as "g" where "g"."deleted_at" is null and "g"."seller_id" = $1 and "g"."user_id" = $2;

-- idsLinkedTo
select "g"."id" from "guides" as "g" where "g"."deleted_at" is null and "g"."user_id" = $1 and "g"."seller_id" in ($2);

-- linkedToUsers
select "g"."id", "g"."user_id" from "guides" as "g" where "g"."deleted_at" is null and ("g"."seller_id" in ($1) or "g"."id" in ($2)) and "g"."user_id" in ($3, $4);

-- usersLinkedTo
select "g"."id", "g"."user_id" from "guides" as "g" where "g"."deleted_at" is null and ("g"."seller_id" in ($1) or "g"."id" in ($2)) and "g"."id" in ($3, $4) and "g"."user_id" is not null;

-- update
update "guides" set "name" = $1, "updated_at" = greatest($2::timestamptz, "guides"."updated_at" + interval '1 millisecond') where "id" = $3 and "deleted_at" is null returning *;

-- markDeleted
update "guides" set "deleted_at" = $1, "updated_at" = greatest($2::timestamptz, "guides"."updated_at" + interval '1 millisecond') where "id" = $3 and "deleted_at" is null;

-- listSource.rows
select "g".* from "guides" as "g" where "g"."deleted_at" is null and (lower("g"."name" collate "und-x-icu") like $1 and ("g"."seller_id" in ($2))) order by "g"."created_at" desc, "g"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "guides" as "g" where "g"."deleted_at" is null and (lower("g"."name" collate "und-x-icu") like $1 and ("g"."seller_id" in ($2)));
