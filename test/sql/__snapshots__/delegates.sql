-- lockedRoles
select "roles" from "delegates" where "seller_id" = $1 and "user_id" = $2 and ("email" is null or "accepted_at" is not null) for share;

-- upsert
insert into "delegates" ("created_at", "updated_at", "id", "seller_id", "user_id", "email", "roles") values ($1, $2, $3, $4, $5, $6, $7) on conflict on constraint "delegates_seller_email" do update set "roles" = $8, "updated_at" = greatest($9::timestamptz, "delegates"."updated_at" + interval '1 millisecond') returning "id";

-- issueToken
update "delegates" set "invitation_digest" = $1, "invitation_expires_at" = now() + cast($2 as double precision) * interval '1 millisecond', "updated_at" = greatest($3::timestamptz, "delegates"."updated_at" + interval '1 millisecond') where "id" = $4 and "email" is not null and "accepted_at" is null;

-- lockPendingInvitation
select "invitation_digest" as "digest", "invitation_expires_at" > now() as "live" from "delegates" where "seller_id" = $1 and "id" = $2 and "accepted_at" is null and "invitation_digest" is not null for update;

-- accept
update "delegates" set "user_id" = $1, "accepted_at" = now(), "invitation_digest" = $2, "invitation_expires_at" = $3, "updated_at" = greatest($4::timestamptz, "delegates"."updated_at" + interval '1 millisecond') where "seller_id" = $5 and "id" = $6 and "accepted_at" is null;

-- pendingInvitation
select "d"."seller_id", "s"."name" as "seller_name", "d"."email", "d"."roles", "d"."invitation_digest" as "digest", "d"."invitation_expires_at" as "expires_at" from "delegates" as "d" inner join "users" as "s" on "s"."id" = "d"."seller_id" where "d"."id" = $1 and "d"."accepted_at" is null and "d"."invitation_expires_at" > now();

-- find
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where "d"."seller_id" = $1 and "d"."id" = $2;

-- findByUser
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where "d"."seller_id" = $1 and "d"."user_id" = $2;

-- remove
delete from "delegates" where "seller_id" = $1 and "id" = $2 returning "user_id";

-- listSource.rows
select "d".*, "u"."name" as "user_name", "u"."email" as "user_email" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where (("d"."seller_id" in ($1))) order by "d"."created_at" desc, "d"."id" desc limit 6;

-- listSource.count
select count(*) as "n" from "delegates" as "d" left join "users" as "u" on "u"."id" = "d"."user_id" where (("d"."seller_id" in ($1)));
