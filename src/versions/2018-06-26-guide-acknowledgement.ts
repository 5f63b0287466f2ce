/**
 * v2018-06-26 Guide Acknowledgement. An event's guides become objects with the guide's
 * answer, and guides answer their assignments. The rewrites live with the events
 * (modules/events/events.versions.ts).
 */
import type { ApiVersion } from './types.js';

export const guideAcknowledgement: ApiVersion = {
  date: '2018-06-26',
  title: 'Guide Acknowledgement',
  description: [
    'An event’s `guides` become objects, `[{"status": "pending" | "confirmed" | "declined", "guide": {"id"}}]`:',
    'a new assignment is `pending` until the guide answers with the new `PUT /api/events/{id}/guides/{guideId}` (`{"status"}`);',
    'a declined guide stays listed, is not counted by the overlap rule and is left out of confirmation emails.',
    '`POST /api/events` also takes `guides` as `[{"id"}]` or `[{"guide": {"id"}}]` (in every version).',
    'Callers on earlier versions keep bare guide ids in `guides`, without the guides that declined;',
    'their `POST /api/events` sets the guides they see and keeps the declined ones whatever its `guides` say (they are not the caller’s to remove).',
  ].join(' '),
};
