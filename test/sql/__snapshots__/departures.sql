-- between
select "starts_at", "max", "reserved", "manual" from "events" where "experience_id" = $1 and "starts_at" >= $2 and "starts_at" < $3 order by "starts_at";
