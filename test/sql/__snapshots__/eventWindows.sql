-- otherThanDuration
select "e"."experience_id", "e"."starts_at", "e"."ends_at" from "events" as "e" inner join "experiences" as "x" on "x"."id" = "e"."experience_id" where "e"."experience_id" in ($1, $2) and "e"."starts_at" >= $3 and "e"."starts_at" <= $4 and e.ends_at <> e.starts_at + x.duration * interval '1 minute';
