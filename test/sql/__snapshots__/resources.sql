-- insert
insert into "resources" ("id", "seller_id", "name", "capacity", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) returning *;

-- findById
select * from "resources" where "id" = $1;

-- findMany
select * from "resources" where "id" in ($1, $2);

-- lock
select * from "resources" where "id" in ($1, $2) order by "id" for update;

-- update
update "resources" set "capacity" = $1, "updated_at" = greatest($2::timestamptz, "resources"."updated_at" + interval '1 millisecond') where "id" = $3 returning *;

-- remove
delete from "resources" where "id" = $1;

-- listSource.rows
select "r".* from "resources" as "r" where (("r"."seller_id" in ($1))) order by "r"."created_at" desc, "r"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "resources" as "r" where (("r"."seller_id" in ($1)));
