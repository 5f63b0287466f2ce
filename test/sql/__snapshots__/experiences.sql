-- insert
insert into "experiences" ("created_at", "updated_at", "id", "seller_id", "name", "price", "price_type", "currency", "duration", "order_min", "order_max", "outing_max", "schedules", "guide") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning *;

-- findById
select * from "experiences" where "id" = $1;

-- lock
select * from "experiences" where "id" = $1 for no key update;

-- findMany
select * from "experiences" where "id" = any($1);

-- findManyOfOne
select * from "experiences" where "id" = $1;

-- visibleOfSeller
select * from "experiences" where "seller_id" = $1 and "visible" = $2 order by "created_at", "id";

-- update
update "experiences" set "name" = $1, "updated_at" = greatest($2::timestamptz, "experiences"."updated_at" + interval '1 millisecond') where "id" = $3 returning *;

-- createGuidePreferences
update "experiences" set "guide" = $1, "updated_at" = greatest($2::timestamptz, "experiences"."updated_at" + interval '1 millisecond') where "id" = $3 and "guide" is null returning *;

-- updateGuidePreferences
update "experiences" set "guide" = guide || $1::jsonb, "updated_at" = greatest($2::timestamptz, "experiences"."updated_at" + interval '1 millisecond') where "id" = $3 and "guide" is not null returning *;

-- remove
delete from "experiences" where "id" = $1;

-- usesResource
select "id" from "experiences" where resources @> $1::jsonb limit $2;

-- listSource.rows
select "x".* from "experiences" as "x" where (lower("x"."name" collate "und-x-icu") like $1 and ("x"."seller_id" in ($2))) order by "x"."created_at" desc, "x"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "experiences" as "x" where (lower("x"."name" collate "und-x-icu") like $1 and ("x"."seller_id" in ($2)));
