-- insert
insert into "domain_events" ("id", "name", "seller_id", "actor_id", "object", "audit") values ($1, $2, $3, $4, $5, $6);
