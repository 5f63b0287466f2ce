-- upsert
insert into "delegates" ("id", "seller_id", "user_id", "email", "roles") values ($1, $2, $3, $4, $5) on conflict on constraint "delegates_seller_email" do update set "roles" = $6, "updated_at" = $7 returning "id";

-- linkInvitations
update "delegates" set "user_id" = $1, "updated_at" = $2 where "user_id" is null and "email" = $3;

-- find
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where "d"."seller_id" = $1 and "d"."id" = $2;

-- findByUser
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where "d"."seller_id" = $1 and "d"."user_id" = $2;

-- remove
delete from "delegates" where "seller_id" = $1 and "id" = $2 returning "user_id";

-- listSource.rows
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where (("d"."seller_id" in ($1))) order by "d"."id" desc limit $2 offset $3;

-- listSource.count
select count(*) as "n" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where (("d"."seller_id" in ($1)));
