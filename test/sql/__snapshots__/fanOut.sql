-- fanOut
select "id", "seq", "name", "seller_id", object->>'id' as "object_id", object->'experience'->>'id' as "experience_id" from "domain_events" where not fanned_out order by "seq" limit $1 for update skip locked;

-- insertDeliveries
insert into "webhook_deliveries" ("id", "created_at", "updated_at", "hook_id", "event_id", "event_name", "event_seq") select d.id, d.at, d.at, d.hook_id, d.event_id, d.event_name, d.event_seq
        from unnest($1::text[],
          $2::timestamptz[],
          $3::text[],
          $4::text[],
          $5::text[],
          $6::bigint[])
          as d(id, at, hook_id, event_id, event_name, event_seq) on conflict on constraint "webhook_deliveries_hook_event" do nothing;
