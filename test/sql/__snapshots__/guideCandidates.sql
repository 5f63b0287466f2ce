-- freeCandidates
select "g".* from "guides" as "g" where "g"."deleted_at" is null and "g"."seller_id" = $1 and g.schedules @> '[{"type": "available"}]'::jsonb and not exists (select 1 as "one" from "events" as "e" where e.guide_ids @> array[g.id]::text[] and coalesce(e.guide_statuses ->> g.id, 'confirmed') <> 'declined' and "e"."id" <> $2 and "e"."starts_at" < $3 and "e"."ends_at" > $4) and "g"."id" > $5 and "g"."id" not in ($6) order by "g"."id" limit $7;

-- lockFree
select "g"."id" from "guides" as "g" where "g"."deleted_at" is null and "g"."id" in ($1, $2) order by "g"."id" for update skip locked;
