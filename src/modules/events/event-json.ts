/**
 * The Event view of the current API version as PostgreSQL builds it (issue 27), but for its
 * `start` and `end`: row `e` of `events` joined to its experience `x` becomes the JSON text
 * of the keys before and after those two, generated from the schema in events.schemas.ts
 * (db/json-view.ts). The local times are Node's (`localIso`, Intl's zone rules): an event
 * stores only its instants, and PostgreSQL's tzdata need not agree with Node's.
 * Each value below is the SQL twin of `toEventView`'s mapping of the same column;
 * test/http/event-json.test.ts holds the two renderings to the same JSON value.
 */
import { aroundGap, jsonObject, jsonObjectAround, sqlViews } from '../../db/json-view.js';
import { localIso } from '../shared/index.js';
import { Event, EventGuide } from './events.schemas.js';

const { iso, ref } = sqlViews;

/** `toEventView`'s guides: each assigned guide with its answer, in assignment order. */
const guides = `coalesce((select json_agg(${jsonObject(EventGuide, {
  status: `coalesce(e.guide_statuses ->> u.guide_id, 'confirmed')`,
  guide: ref('u.guide_id'),
})} order by u.n) from unnest(e.guide_ids) with ordinality as u(guide_id, n)), '[]'::json)`;

/** The event's view but for `start` and `end`, as two JSON objects. */
export const eventJsonAround = jsonObjectAround(Event, ['start', 'end'], {
  id: 'e.id',
  experience: ref('e.experience_id'),
  seller: ref('e.seller_id'),
  title: 'x.name',
  max: 'e.max',
  quantity: jsonObject(Event.properties.quantity, { reserved: 'e.reserved' }),
  open: 'case when e.manual is false then 0 when e.max is null then null else greatest(0, e.max - e.reserved) end',
  manual: 'e.manual',
  guides,
  createdAt: iso('e.created_at'),
  updatedAt: iso('e.updated_at'),
});

/** What a JSON-text read of an event fetches (`starts_ms`, `ends_ms`: epoch milliseconds). */
export interface EventJsonRow {
  id: string;
  before: string;
  after: string;
  starts_ms: number;
  ends_ms: number;
  timezone: string;
}

/** The event's view as JSON text: PostgreSQL's two halves around Node's local times. */
export const eventJson = (row: EventJsonRow): string =>
  aroundGap(
    row.before,
    `"start":"${localIso(new Date(row.starts_ms), row.timezone)}","end":"${localIso(new Date(row.ends_ms), row.timezone)}"`,
    row.after,
  );
