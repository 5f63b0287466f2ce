/**
 * v2018-02-26 Guide Profiles. Before it, a guide was the user of a seller's delegate: events
 * list user ids in `guides`, and assignment takes and removes user ids (creating a guide
 * profile for a delegate that has none). The rewrites live with the events
 * (modules/events/events.versions.ts); the schedule check is gated there too.
 */
import type { ApiVersion } from './types.js';

export const guideProfiles: ApiVersion = {
  date: '2018-02-26',
  title: 'Guide Profiles',
  description: [
    'Guides become profiles of their own (name, email, phone, bio, picture, availability schedules) under `/api/sellers/{id}/guides`, with ids distinct from user ids;',
    'new endpoints `GET /api/users/{id}/delegates/{delegateId}` and `POST`/`PUT /api/experiences/{id}/guide`.',
    'A guide can be assigned to an event only if its schedules allow it.',
    'Changed: `POST /api/events/{id}/guides` and `DELETE /api/events/{id}/guides/{guideId}` take a guide id instead of a user id,',
    'and the `guides` of events (`POST /api/events`, `GET /api/events`, `GET /api/events/{id}`) hold guide ids instead of user ids.',
    'Callers on earlier versions keep user ids (of the seller’s delegates; a profile is created for a delegate that has none, with the assignment or the event, and announced as `guide.create`), also in the `guides` filter of `GET /api/events` (a user id finds the events of the guide profiles linked to it; two `guides` filters that become the same parameter, such as `guides` and `guides[in]`, are 400 `repeated_parameter`), and their assignments skip the schedule check.',
    'Guides without a linked user are not in the `guides` they see, and their `POST /api/events` keeps those guides whatever its `guides` say.',
  ].join(' '),
};
