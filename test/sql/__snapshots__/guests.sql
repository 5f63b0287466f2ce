-- insert
insert into "order_guests" ("id", "order_id", "item_id", "seller_id", "event_id", "demographic_id", "ticket_code", "status", "checked_in_at", "checked_in_by", "position", "created_at", "canceled_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- liveOf
select * from "order_guests" where "order_id" = $1 and "canceled_at" is null order by "position", "id";

-- allOf
select * from "order_guests" where "order_id" in ($1, $2) order by "item_id", "position", "id";

-- findByTicketCode
select * from "order_guests" where "ticket_code" = $1;

-- findCode

        select 'guest' as kind, g.id, g.order_id, g.seller_id
          from order_guests g where g.ticket_code = $1
        union all
        select 'item', i.id, i.order_id, i.seller_id from order_items i where i.ticket_code = $2
        union all
        select 'order', o.id, o.id, o.seller_id from orders o
         where o.short_code = $3 and o.seller_id in ($4, $5);

-- findCode all

        select 'guest' as kind, g.id, g.order_id, g.seller_id
          from order_guests g where g.ticket_code = $1
        union all
        select 'item', i.id, i.order_id, i.seller_id from order_items i where i.ticket_code = $2
        union all
        select 'order', o.id, o.id, o.seller_id from orders o
         where o.short_code = $3 and true;

-- atEvent

      with counts as (
        select count(*)::int as booked,
               (count(*) filter (where g.status = 'arrived'))::int as arrived,
               (count(*) filter (where g.status = 'no_show'))::int as no_show,
               (count(*) filter (where g.status = 'pending'))::int as pending,
               true as cursor_found
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $1 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $2)
      ), page as (
        select g.*, o.short_code, o.customer_name, i.status as item_status,
               i.demographics as item_demographics, i.position as item_position
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $3 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $4) and true
         order by o.customer_name, g.order_id, i.position, g.position, g.id
         limit $5
      ), marked as (
        select p.*, row_number() over (partition by p.order_id
                                        order by p.item_position, p.position, p.id) = 1
                 as first_of_order
          from page p
      )
      select c.*, p.*,
             case when p.first_of_order then (
               select coalesce(jsonb_agg(left(n.text, $6::int - n.before) order by n.ord), '[]'::jsonb)
                 from (select e->>'text' as text, x.ord,
                              coalesce(sum(length(e->>'text')) over (order by x.ord
                                rows between unbounded preceding and 1 preceding), 0)::int as before
                         from orders o, jsonb_array_elements(o.notes) with ordinality as x(e, ord)
                        where o.id = p.order_id) n
                where n.before <= $7)
             end as notes
        from counts c
        left join marked p on true
       order by p.customer_name, p.order_id, p.item_position, p.position, p.id;

-- atEventAfter

      with counts as (
        select count(*)::int as booked,
               (count(*) filter (where g.status = 'arrived'))::int as arrived,
               (count(*) filter (where g.status = 'no_show'))::int as no_show,
               (count(*) filter (where g.status = 'pending'))::int as pending,
               exists (select 1 from order_guests where id = $1 and event_id = $2) as cursor_found
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $3 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $4)
      ), page as (
        select g.*, o.short_code, o.customer_name, i.status as item_status,
               i.demographics as item_demographics, i.position as item_position
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $5 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $6) and (o.customer_name, g.order_id, i.position, g.position, g.id) > (
            select ao.customer_name, a.order_id, ai.position, a.position, a.id
              from order_guests a
              join orders ao on ao.id = a.order_id
              join order_items ai on ai.id = a.item_id
             where a.id = $7 and a.event_id = $8)
         order by o.customer_name, g.order_id, i.position, g.position, g.id
         limit $9
      ), marked as (
        select p.*, row_number() over (partition by p.order_id
                                        order by p.item_position, p.position, p.id) = 1
                 as first_of_order
          from page p
      )
      select c.*, p.*,
             case when p.first_of_order then (
               select coalesce(jsonb_agg(left(n.text, $10::int - n.before) order by n.ord), '[]'::jsonb)
                 from (select e->>'text' as text, x.ord,
                              coalesce(sum(length(e->>'text')) over (order by x.ord
                                rows between unbounded preceding and 1 preceding), 0)::int as before
                         from orders o, jsonb_array_elements(o.notes) with ordinality as x(e, ord)
                        where o.id = p.order_id) n
                where n.before <= $11)
             end as notes
        from counts c
        left join marked p on true
       order by p.customer_name, p.order_id, p.item_position, p.position, p.id;

-- atEventAfterKey

      with counts as (
        select count(*)::int as booked,
               (count(*) filter (where g.status = 'arrived'))::int as arrived,
               (count(*) filter (where g.status = 'no_show'))::int as no_show,
               (count(*) filter (where g.status = 'pending'))::int as pending,
               true as cursor_found
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $1 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $2)
      ), page as (
        select g.*, o.short_code, o.customer_name, i.status as item_status,
               i.demographics as item_demographics, i.position as item_position
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where g.event_id = $3 and g.canceled_at is null
      and (i.status <> 103 or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > $4) and o.customer_name >= cast($5 as text) collate "C"
        and (o.customer_name, g.order_id, i.position, g.position, g.id) > (
            cast($6 as text) collate "C", cast($7 as text) collate "C",
            cast($8 as integer), cast($9 as integer),
            cast($10 as text) collate "C")
         order by o.customer_name, g.order_id, i.position, g.position, g.id
         limit $11
      ), marked as (
        select p.*, row_number() over (partition by p.order_id
                                        order by p.item_position, p.position, p.id) = 1
                 as first_of_order
          from page p
      )
      select c.*, p.*,
             case when p.first_of_order then (
               select coalesce(jsonb_agg(left(n.text, $12::int - n.before) order by n.ord), '[]'::jsonb)
                 from (select e->>'text' as text, x.ord,
                              coalesce(sum(length(e->>'text')) over (order by x.ord
                                rows between unbounded preceding and 1 preceding), 0)::int as before
                         from orders o, jsonb_array_elements(o.notes) with ordinality as x(e, ord)
                        where o.id = p.order_id) n
                where n.before <= $13)
             end as notes
        from counts c
        left join marked p on true
       order by p.customer_name, p.order_id, p.item_position, p.position, p.id;

-- cancel

    with gone as (
      update order_guests set canceled_at = $1
       where id in ($2, $3) and canceled_at is null
      returning id)
    update checkins set undone_at = $4, undone_by = null
     where guest_id in (select id from gone) and undone_at is null;

-- cancelOfOrder

    with gone as (
      update order_guests set canceled_at = $1
       where order_id = $2 and canceled_at is null
      returning id)
    update checkins set undone_at = $3, undone_by = null
     where guest_id in (select id from gone) and undone_at is null;

-- moveTo
update "order_guests" set "event_id" = $1 where "id" in ($2);

-- setStatus
update "order_guests" set "status" = $1, "checked_in_at" = $2, "checked_in_by" = $3 where "id" in ($4) and "canceled_at" is null;
