-- between
select "starts_at", "max", "reserved", "manual" from "events" where "experience_id" = $1 and "starts_at" >= $2 and "starts_at" < $3 order by "starts_at";

-- openedByHandBetween
select count(*) as "n" from (select 1 as "one" from "events" where "experience_id" in ($1) and manual and "starts_at" >= $2 and "starts_at" < $3 limit $4) as "found";
