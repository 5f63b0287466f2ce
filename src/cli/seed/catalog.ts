/**
 * What sellers sell: guides, experiences and events.
 *
 * - Guides: one to five per seller, available every day, so they can be assigned anywhere.
 * - Experiences: one per seller, the rest to a few big sellers (a long tail of small ones,
 *   as on a real marketplace), each with a weekly schedule of one to three departures on
 *   every day, weekdays, weekends or three days a week, in the seller's time zone and
 *   currency.
 * - Events: scheduled departures within the two-year window, spread evenly over it (a
 *   popular experience has more). Every event is a real departure of its experience's
 *   schedule, so the API accepts bookings on it. Some have one or two guides assigned.
 *
 * Reserved seats are filled in by orders.ts once the items exist.
 */
import { fillLocalTimes } from '../../modules/events/index.js';
import type { SeedContext } from './context.js';
import { emailLocalPart, nameColumns } from './people.js';
import { idSql, intArray, pick, rnd, TAG, textArray } from './sql.js';
import { S } from './streams.js';
import { ACTIVITIES, ADJECTIVES, PLACES } from './words.js';

/** The window is 104 weeks (two years, Sunday to Saturday). */
export const WINDOW_WEEKS = 104;

const DAY_PATTERNS = [
  '{0,1,2,3,4,5,6}',
  '{0,1,2,3,4,5,6}',
  '{0,1,2,3,4,5,6}',
  '{0,1,2,3,4,5,6}',
  '{0,1,2,3,4,5,6}',
  '{1,2,3,4,5}',
  '{1,2,3,4,5}',
  '{0,6}',
  '{1,3,5}',
  '{2,4,6}',
];
const DURATIONS = [60, 90, 120, 120, 180, 180, 240, 300, 360, 480];
const CAPACITIES = [6, 8, 10, 12, 12, 15, 20, 25, 30, 40];

export async function createGuides(ctx: SeedContext): Promise<void> {
  const { seed } = ctx.options;
  const r = (stream: number) => rnd(seed, 'g.n', stream);
  await ctx.run(`
    create temp table s_guides as
    select g.n, g.seller_n, g.idx, ${idSql('g.created_at', TAG.guide, 'g.n')} as id, g.seller_id,
           p.first_name || ' ' || p.last_name as name,
           ${emailLocalPart('p.first_name', 'p.last_name')} || '@' || g.domain as email,
           '+1 555 ' || lpad((floor(${r(S.guidePhone)} * 10000))::int::text, 4, '0') as phone,
           'Guiding for ' || (1 + floor(${r(S.guideYears)} * 20))::int || ' years.' as bio,
           g.created_at
    from (select s.guide_offset + i as n, s.n as seller_n, i as idx, s.id as seller_id, s.domain,
                 s.created_at + (i + 1) * interval '1 day' as created_at
          from s_sellers s cross join lateral generate_series(0, s.guide_count - 1) i) g
    cross join lateral (select ${nameColumns(seed, 'g.n', { first: S.guideFirst, last: S.guideLast })}) p`);
  await ctx.run(`create index on s_guides (seller_n, idx)`);
  await ctx.run(`
    insert into guides (id, seller_id, name, email, phone, bio, schedules, created_at, updated_at)
    select id, seller_id, name, email, phone, bio,
           jsonb_build_array(jsonb_build_object(
             'id', ${idSql('created_at', TAG.schedule, 'n')}, 'type', 'available', 'repeat', 'weekly',
             'days', '[0,1,2,3,4,5,6]'::jsonb, 'timeRanges', '[]'::jsonb)),
           created_at, created_at
    from s_guides order by n`);
}

export async function createExperiences(ctx: SeedContext): Promise<void> {
  const { seed, sellers, experiences, events } = ctx.options;
  const r = (stream: number) => rnd(seed, 'x.n', stream);
  const capacity = r(S.experienceCapacity);
  await ctx.run(`
    create temp table s_experiences as
    select x.*, (sum(n_events) over (order by n) - n_events)::int as event_offset
    from (
      select x.*, greatest(1, least(n_departures,
               round(${events} * weight / sum(weight) over ())))::int as n_events
      from (
        select x.*, t.times, t.days,
               ${WINDOW_WEEKS} * cardinality(t.days) * cardinality(t.times) as n_departures
        from (
          select x.n, ${idSql('x.created_at', TAG.experience, 'x.n')} as id, x.created_at,
                 s.n as seller_n, s.id as seller_id, s.timezone, s.currency,
                 ${pick(textArray(ADJECTIVES), ADJECTIVES.length, r(S.experienceAdjective))} || ' '
                   || ${pick(textArray(ACTIVITIES), ACTIVITIES.length, r(S.experienceActivity), 1.3)}
                   || ' in ' || ${pick(textArray(PLACES), PLACES.length, r(S.experiencePlace), 1.3)}
                   as name,
                 round((12 + power(${r(S.experiencePrice)}, 2) * 388)::numeric, 0) - 0.01 as price,
                 case when ${r(S.experiencePriceType)} < 0.85 then 'person' else 'outing' end
                   as price_type,
                 ${pick(intArray(DURATIONS), DURATIONS.length, r(S.experienceDuration))} as duration,
                 ${pick(textArray(DAY_PATTERNS), DAY_PATTERNS.length, r(S.experienceDays))}
                   as days_text,
                 -- One in ten has no limit; the rest pick a capacity with the rest of the draw.
                 case when ${capacity} < 0.1 then null
                      else ${pick(intArray(CAPACITIES), CAPACITIES.length, `((${capacity} - 0.1) / 0.9)`)}
                 end as outing_max,
                 ${r(S.experienceVisible)} < 0.92 as visible,
                 0.25 + 1.5 * ${r(S.experienceWeight)} as weight,
                 1 + floor(power(${r(S.experienceTimes)}, 1.5) * 3)::int as n_times,
                 8 + floor(${r(S.experienceHour)} * 4)::int as first_hour,
                 2 + floor(${r(S.experienceGap)} * 3)::int as gap,
                 (array[0, 0, 30])[1 + floor(${r(S.experienceMinute)} * 3)::int] as minute
          from (select n, ${ctx.fromUtc} - interval '1 year' + n * interval '97 minutes' as created_at,
                       case when n < ${sellers} then n
                            else floor(power(${rnd(seed, 'n', S.experienceSeller)}, 2) * ${sellers})::int end
                         as seller_n
                from generate_series(0, ${experiences - 1}) n) x
          join s_sellers s on s.n = x.seller_n
        ) x
        cross join lateral (
          select array(select (x.first_hour + i * x.gap) * 100 + x.minute
                       from generate_series(0, x.n_times - 1) i) as times,
                 x.days_text::int[] as days
        ) t
      ) x
    ) x`);
  await ctx.run(`create index on s_experiences (n)`);
  await ctx.run(`
    insert into experiences (id, seller_id, name, description, price, price_type, currency,
                             duration, timezone, outing_max, schedules, visible, created_at,
                             updated_at)
    select id, seller_id, name,
           'A ' || lower(name) || '. ' || duration || ' minutes, up to '
             || coalesce(outing_max::text, 'any number of') || ' guests.',
           price, price_type, currency, duration, timezone, outing_max,
           jsonb_build_array(jsonb_build_object(
             'id', ${idSql('created_at', TAG.schedule, `${1e9} + n`)}, 'type', 'available',
             'repeat', 'weekly', 'days', to_jsonb(days), 'times', to_jsonb(times))),
           visible, created_at, created_at
    from s_experiences order by n`);
}

export async function createEvents(ctx: SeedContext): Promise<number> {
  const { seed } = ctx.options;
  // Departure i of an experience (0 = the window's first): slot i / times of the days of
  // each week in order, at time i % times of that day.
  await ctx.run(`
    create temp table s_events as
    select e.*, ${idSql('e.created_at', TAG.event, 'e.n')} as id
    from (
      select d.*, d.local_start at time zone d.timezone as starts_at,
             -- Orders book the first event whose pick_at follows a moment: many events
             -- start at the same instant, and the jitter shares those ties out fairly.
             d.local_start at time zone d.timezone
               + ${rnd(seed, 'd.n', S.eventPick)} * interval '1 hour' as pick_at,
             least(d.local_start at time zone d.timezone
                     - (7 + ${rnd(seed, 'd.n', S.eventCreated)} * 120) * interval '1 day',
                   ${ctx.asOf}) as created_at
      from (
        select x.event_offset + k as n, x.n as experience_n, k, x.id as experience_id,
               x.seller_id, x.seller_n, x.timezone, x.duration, x.outing_max,
               (${ctx.from} + 7 * (slot / cardinality(x.days)) + x.days[1 + slot % cardinality(x.days)])
                 + make_time(dep_time / 100, dep_time % 100, 0) as local_start,
               dep_time as arrival_time
        from s_experiences x
        cross join lateral generate_series(0, x.n_events - 1) k
        -- Event k takes a departure of its own share [k * N / E, (k + 1) * N / E) of the
        -- N departures: distinct for every k, and spread over the whole window.
        cross join lateral (
          select (k::int8 * x.n_departures / x.n_events)::int as first,
                 ((k + 1)::int8 * x.n_departures / x.n_events)::int as last) share
        cross join lateral (
          select share.first + floor(${rnd(seed, 'x.event_offset + k', S.eventJitter)}
                                     * (share.last - share.first))::int as i) dep
        cross join lateral (
          select dep.i / cardinality(x.times) as slot,
                 x.times[1 + dep.i % cardinality(x.times)] as dep_time) t
      ) d
    ) e`);
  await ctx.run(`create index on s_events (n)`);
  await ctx.run(`create index on s_events (pick_at)`);
  await ctx.run(`analyze s_sellers, s_guides, s_experiences, s_events`);
  const r = rnd(seed, 'e.n', S.eventGuides);
  // A few departures closed (0.4%) or opened (0.2%) by hand, as operators do.
  const m = rnd(seed, 'e.n', S.eventManual);
  await ctx.run(`
    insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved,
                        guide_ids, manual, created_at, updated_at)
    select e.id, e.experience_id, e.seller_id, e.starts_at,
           e.starts_at + e.duration * interval '1 minute', e.outing_max, 0,
           array(select g.id from s_guides g
                 where g.seller_n = e.seller_n
                   and ${r} >= 0.55
                   and g.idx in (e.k % s.guide_count,
                                 case when ${r} >= 0.9 then (e.k + 1) % s.guide_count end)
                 order by g.idx),
           case when ${m} < 0.004 then false when ${m} >= 0.998 then true end,
           e.created_at, e.created_at
    from s_events e join s_sellers s on s.n = e.seller_n
    order by e.n`);
  // Their local start and end, as every write of an event stores them from Node's rules.
  await fillLocalTimes(ctx.trx);
  const [row] = await ctx.run<{ n: number }>(`select count(*)::int as n from s_events`);
  return row!.n;
}
