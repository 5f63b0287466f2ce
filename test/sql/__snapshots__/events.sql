-- withExperience
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id";

-- findById
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" = $1;

-- findMany
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" in ($1, $2);

-- findAt
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."experience_id" = $1 and "e"."starts_at" = $2;

-- upsert
insert into "events" ("created_at", "updated_at", "id", "experience_id", "seller_id", "starts_at", "ends_at", "max") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict on constraint "events_experience_start" do update set "ends_at" = "excluded"."ends_at", "max" = "excluded"."max", "updated_at" = greatest($9::timestamptz, "events"."updated_at" + interval '1 millisecond') returning "id", xmax = 0 as "inserted";

-- takeSeatsAt
with "made" as (insert into "events" ("id", "experience_id", "seller_id", "starts_at", "ends_at", "max", "reserved", "created_at", "updated_at") select $1 as "id", $2 as "experience_id", $3 as "seller_id", $4::timestamptz as "starts_at", $5::timestamptz as "ends_at", $6::int as "max", $7::int as "reserved", $8::timestamptz as "created_at", $9::timestamptz as "updated_at" where $10::int is null or $11::int <= $12::int on conflict on constraint "events_experience_start" do nothing returning *), "taken" as (update "events" set "reserved" = reserved + $13, "updated_at" = greatest($14::timestamptz, "events"."updated_at" + interval '1 millisecond') where "experience_id" = $15 and "starts_at" = $16 and not exists (select from made) and "manual" is not false and ("max" is null or reserved + $17 <= "max") returning *) select *, true as "created" from "made" union all select *, false as "created" from "taken";

-- findOrCreate
insert into "events" ("created_at", "updated_at", "id", "experience_id", "seller_id", "starts_at", "ends_at", "max") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict on constraint "events_experience_start" do nothing returning "id";
select "id" from "events" where "experience_id" = $1 and "starts_at" = $2;

-- reserve
update "events" set "reserved" = reserved + $1, "updated_at" = greatest($2::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $3 and "manual" is not false and ("max" is null or reserved + $4 <= "max") returning *;

-- release
update "events" set "reserved" = reserved - $1, "updated_at" = greatest($2::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $3;

-- overlappingWithGuide
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where e.guide_ids @> array[$1]::text[] and coalesce(e.guide_statuses ->> $2, 'confirmed') <> 'declined' and "e"."id" <> $3 and "e"."starts_at" < $4 and "e"."ends_at" > $5 order by "e"."starts_at" limit $6;

-- addGuide
update "events" set "guide_ids" = array_append(guide_ids, $1), "guide_statuses" = guide_statuses || jsonb_build_object($2::text, 'pending'), "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $4 and not guide_ids @> array[$5]::text[];

-- setGuideStatus
update "events" set "guide_statuses" = guide_statuses || jsonb_build_object($1::text, $2::text), "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $4;

-- removeGuide
update "events" set "guide_ids" = array_remove(guide_ids, $1), "guide_statuses" = guide_statuses - $2::text, "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $4;

-- removeGuideFromFuture
update "events" set "guide_ids" = array_remove(guide_ids, $1), "guide_statuses" = guide_statuses - $2::text, "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where guide_ids @> array[$4]::text[] and "starts_at" > $5;

-- guidesOf
select "id", "guide_ids", "guide_statuses" from "events" where "id" in ($1, $2);

-- withGuideProfiles
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone", coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'phone', g.phone)
              order by array_position(e.guide_ids, g.id)) from guides g where g.id = any(e.guide_ids)), '[]'::json) as "profiles" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" = $1;

-- seatsLeft
select "max", "reserved", "manual" from "events" where "id" = $1;

-- forAvailability
select "experience_id", "starts_at", "max", "reserved", "manual" from "events" where "experience_id" in ($1) and ("starts_at" in ($2, $3) or ("manual" = $4 and "starts_at" >= $5 and "starts_at" < $6));

-- startingAtMany
select "experience_id", "starts_at", "max", "reserved", "manual" from "events" where "experience_id" in ($1, $2) and "starts_at" in ($3, $4);

-- lock
select * from "events" where "id" = $1 for update;

-- change
update "events" set "max" = $1, "manual" = $2, "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $4;

-- hasBookings
select "id" from "order_items" where "event_id" = $1 limit $2;

-- delete
delete from "events" where "id" = $1;

-- listSource.rows
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from (select "e".* from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3))) order by "e"."created_at" desc, "e"."id" desc limit $4 offset $5) as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" order by "e"."created_at" desc, "e"."id" desc;

-- listSource.count
select count(*) as "n" from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3)));
