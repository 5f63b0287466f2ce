/**
 * The Event view of the current API version as PostgreSQL builds it, row `e` of `events`
 * (with its experience `x`) becoming its JSON text (issue 27): the projection is generated
 * from the schema in events.schemas.ts (db/json-view.ts), each value the SQL twin of
 * `toEventView`'s mapping of the same column, which test/http/event-json.test.ts holds to the
 * same JSON value. The local start and end are the texts stored on the row (new-event.ts);
 * a row whose stored zone is not its experience's zone has no text here (''), and the
 * service shows that page from Node's zone rules instead.
 */
import { jsonObject, sqlViews } from '../../db/json-view.js';
import { Event, EventGuide } from './events.schemas.js';

const { iso, ref } = sqlViews;

/** `seatsOpen`: none when closed by hand, null when unlimited, never below 0. */
const open =
  'case when e.manual is false then 0 when e.max is null then null else greatest(0, e.max - e.reserved) end';

/** The guides in `guide_ids` order, each with its answer (`confirmed` when none is kept). */
const guides = `coalesce((select json_agg(${jsonObject(EventGuide, {
  status: "coalesce(e.guide_statuses ->> g.id, 'confirmed')",
  guide: ref('g.id'),
})} order by g.n) from unnest(e.guide_ids) with ordinality as g(id, n)), '[]'::json)`;

const event = jsonObject(Event, {
  id: 'e.id',
  experience: ref('e.experience_id'),
  seller: ref('e.seller_id'),
  title: 'x.name',
  start: 'e.local_start',
  end: 'e.local_end',
  max: 'e.max',
  quantity: jsonObject(Event.properties.quantity, { reserved: 'e.reserved' }),
  open,
  manual: 'e.manual',
  guides,
  createdAt: iso('e.created_at'),
  updatedAt: iso('e.updated_at'),
});

/** The event's JSON text, or '' when its stored local times are not of its zone. */
export const eventJson = `case when e.local_zone = x.timezone then (${event})::text else '' end`;
