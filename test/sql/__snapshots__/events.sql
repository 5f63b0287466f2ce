-- withExperience
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id";

-- findById
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" = $1;

-- findMany
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" in ($1, $2);

-- findAt
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."experience_id" = $1 and "e"."starts_at" = $2;

-- seatsAhead
select "id" from "events" where "experience_id" = $1 and "starts_at" > now() and "reserved" > $2 limit $3;

-- upsert
insert into "events" ("created_at", "updated_at", "id", "experience_id", "seller_id", "starts_at", "ends_at", "max", "local_zone", "local_start", "local_end") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict on constraint "events_experience_start" do update set "ends_at" = "excluded"."ends_at", "local_zone" = "excluded"."local_zone", "local_start" = "excluded"."local_start", "local_end" = "excluded"."local_end", "max" = "excluded"."max", "updated_at" = greatest($12::timestamptz, "events"."updated_at" + interval '1 millisecond') returning "id", xmax = 0 as "inserted";

-- takeSeatsAt
with "made" as (insert into "events" ("id", "experience_id", "seller_id", "starts_at", "ends_at", "max", "reserved", "local_zone", "local_start", "local_end", "created_at", "updated_at") select $1 as "id", $2 as "experience_id", $3 as "seller_id", $4::timestamptz as "starts_at", $5::timestamptz as "ends_at", $6::int as "max", $7::int as "reserved", $8::text as "local_zone", $9::text as "local_start", $10::text as "local_end", $11::timestamptz as "created_at", $12::timestamptz as "updated_at" where $13::int is null or $14::int <= $15::int on conflict on constraint "events_experience_start" do nothing returning *), "taken" as (update "events" set "reserved" = reserved + $16, "updated_at" = greatest($17::timestamptz, "events"."updated_at" + interval '1 millisecond') where "experience_id" = $18 and "starts_at" = $19 and not exists (select from made) and "manual" is not false and ("max" is null or reserved + $20 <= "max") returning *) select *, true as "created" from "made" union all select *, false as "created" from "taken";

-- findOrCreate
insert into "events" ("created_at", "updated_at", "id", "experience_id", "seller_id", "starts_at", "ends_at", "max", "local_zone", "local_start", "local_end") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict on constraint "events_experience_start" do nothing returning "id";
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

-- lockedEvent
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" = $1 for update of "e";

-- lockFutureWithGuide
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where e.guide_ids @> array[$1]::text[] and "e"."starts_at" > $2 order by "e"."experience_id", "e"."starts_at" limit $3 for update of "e";

-- removeGuideFromEvents
update "events" set "guide_ids" = array_remove(guide_ids, $1), "guide_statuses" = guide_statuses - $2::text, "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" in ($4) returning *;

-- guidesOf
select "id", "guide_ids", "guide_statuses" from "events" where "id" in ($1, $2);

-- withGuideProfiles
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone", coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'phone', g.phone)
              order by array_position(e.guide_ids, g.id)) from guides g where g.id = any(e.guide_ids)
              and g.deleted_at is null
              and coalesce(e.guide_statuses ->> g.id, 'confirmed') <> 'declined'), '[]'::json) as "profiles" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."id" = $1;

-- seatsLeft
select "max", "reserved", "manual" from "events" where "id" = $1;

-- forAvailability
select "experience_id", "starts_at", "ends_at", "max", "reserved", "manual" from "events" where "experience_id" in ($1) and ("starts_at" = any($2::timestamptz[]) or ("manual" = $3 and "starts_at" >= $4 and "starts_at" < $5));

-- startingAtMany
select "experience_id", "starts_at", "ends_at", "max", "reserved", "manual" from "events" where "experience_id" in ($1, $2) and "starts_at" = any($3::timestamptz[]);

-- lock
select * from "events" where "id" = $1 for update;

-- change
update "events" set "max" = $1, "manual" = $2, "updated_at" = greatest($3::timestamptz, "events"."updated_at" + interval '1 millisecond') where "id" = $4;

-- hasBookings
select "id" from "order_items" where "event_id" = $1 limit $2;

-- delete
delete from "events" where "id" = $1;

-- staleLocalTimes
select "e"."id", "e"."starts_at", "e"."ends_at", "x"."timezone" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where e.local_zone is distinct from x.timezone and "e"."id" > $1 and "e"."id" in ($2, $3) order by "e"."id" limit $4;

-- writeLocalTimes
update events set local_zone = t.zone, local_start = t.start_text, local_end = t.end_text
        from unnest($1::text[], $2::text[],
          $3::text[], $4::text[])
          as t(id, zone, start_text, end_text)
        where events.id = t.id;

-- listSource.rows
select "e".*, "x"."name" as "title", "x"."timezone" as "timezone" from (select "e".* from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3))) order by "e"."created_at" desc, "e"."id" desc limit 21) as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" order by "e"."created_at" desc, "e"."id" desc;

-- listSource.count
select count(*) as "n" from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3)));

-- json listSource.rows
select string_agg(p.id, chr(1)) as "ids", string_agg(p.json, chr(1)) as "texts" from (select "e"."id", case when e.local_zone = x.timezone then (json_build_object('object', 'event'::text, 'id', e.id, 'experience', json_build_object('id', e.experience_id), 'seller', json_build_object('id', e.seller_id), 'title', x.name, 'start', e.local_start, 'end', e.local_end, 'max', e.max, 'quantity', json_build_object('reserved', e.reserved), 'open', case when e.manual is false then 0 when e.max is null then null else greatest(0, e.max - e.reserved) end, 'manual', e.manual, 'guides', coalesce((select json_agg(json_build_object('status', coalesce(e.guide_statuses ->> g.id, 'confirmed'), 'guide', json_build_object('id', g.id)) order by g.n) from unnest(e.guide_ids) with ordinality as g(id, n)), '[]'::json), 'createdAt', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text else '' end as "json" from (select "e".* from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3))) order by "e"."created_at" desc, "e"."id" desc limit 21) as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" order by "e"."created_at" desc, "e"."id" desc) as "p";

-- json listSource.count
select count(*) as "n" from "events" as "e" where ("e"."starts_at" between $1 and $2 and ("e"."seller_id" in ($3)));
