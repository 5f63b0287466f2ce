-- loads
select "r"."id", "r"."name", "r"."capacity", coalesce((select json_agg(json_build_object(
              'event_id', s.event_id, 'starts_at', s.starts_at, 'ends_at', s.ends_at, 'seats', s.seats))
            from resource_seats s
           where s.resource_id = r.id and s.starts_at < $1 and s.ends_at > $2
             ), '[]'::json) as "held" from "resources" as "r" where "r"."id" in ($3, $4);

-- hold
insert into "resource_seats" ("resource_id", "event_id", "starts_at", "ends_at", "seats_per_guest", "seats") select * from unnest($1::text[],
              $2::text[],
              $3::timestamptz[],
              $4::timestamptz[],
              $5::integer[],
              $6::integer[]) on conflict ("resource_id", "event_id") do update set "starts_at" = "excluded"."starts_at", "ends_at" = "excluded"."ends_at", "seats_per_guest" = "excluded"."seats_per_guest", "seats" = "excluded"."seats";

-- settle

        update resource_seats s set seats = least(s.seats, v.reserved * s.seats_per_guest)
          from (values ($1, $2::integer)) as v(event_id, reserved)
         where s.event_id = v.event_id;

-- forget
delete from "resource_seats" where "resource_id" = $1;

-- releaseUnused
delete from "resource_seats" where "event_id" in (select "id" from "events" where "experience_id" = $1) and "resource_id" not in ($2);
delete from "resource_seats" where "event_id" in (select "id" from "events" where "experience_id" = $1);

-- loads for takers
select "r"."id", "r"."name", "r"."capacity", coalesce((select json_agg(json_build_object(
              'event_id', s.event_id, 'starts_at', s.starts_at, 'ends_at', s.ends_at, 'seats', s.seats))
            from resource_seats s
           where s.resource_id = r.id and s.starts_at < $1 and s.ends_at > $2
             and tstzrange(s.starts_at, s.ends_at) && (select range_agg(tstzrange(w.f, w.t, '[]'))
            from unnest($3::timestamptz[],
                        $4::timestamptz[]) as w(f, t))), '[]'::json) as "held", (select json_object_agg(e.id, x.resources)
              from events e join experiences x on x.id = e.experience_id
             where e.id = any($5::text[])) as "uses" from "resources" as "r" where "r"."id" in ($6);

-- windowsOf
select "resource_id", "starts_at", "ends_at" from "resource_seats" where "event_id" = $1;

-- lockDepartures
select "e"."id" from "events" as "e" where "e"."experience_id" = $1 and ("e"."reserved" > $2 or exists (select "s"."event_id" from "resource_seats" as "s" where "s"."event_id" = "e"."id")) order by "e"."starts_at", "e"."id" for no key update;

-- departuresAhead
select "id", "starts_at", "ends_at", "reserved" from "events" where "experience_id" = $1 and "reserved" > $2 and "ends_at" > $3 order by "starts_at";
