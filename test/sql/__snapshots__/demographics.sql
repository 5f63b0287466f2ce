-- listSource.rows
select "d".* from "demographics" as "d" where (lower("d"."label" collate "und-x-icu") like $1 and ("d"."seller_id" in ($2))) order by "d"."id" desc limit 21;

-- listSource.count
select count(*) as "n" from "demographics" as "d" where (lower("d"."label" collate "und-x-icu") like $1 and ("d"."seller_id" in ($2)));
