/**
 * v2026-11-25 Strict Bodies. Before it, request bodies were read the way Xola reads them:
 * fields the endpoint does not know are ignored (and named in `X-Ignored-Fields`), and
 * numbers sent as numeric strings (`"900"`) are read as numbers. From it on, both are
 * refused with 400. The rule is applied by http/lenient-bodies.ts for every route.
 */
import type { ApiVersion } from './types.js';

export const strictBodies: ApiVersion = {
  date: '2026-11-25',
  title: 'Strict Bodies',
  description: [
    'Request bodies are checked strictly: a field the endpoint does not know is refused with 400 `validation_failed` ("is not a known field"), and a number must be sent as a JSON number.',
    'Callers on earlier versions keep the lenient reading: unknown fields are ignored and named, comma-separated, in the `X-Ignored-Fields` response header (also in a value that may take one of several object shapes, once its keys say which: `{"id", "name"}` in the `guides` of `POST /api/events`), and numbers sent as numeric strings (`"arrivalTime": "900"`) are read as numbers (also where null is allowed: an event’s `max`, an experience’s `group` limits).',
    'New accounts are pinned to this version.',
    'Also new on every version: the order flow (guest types, quotes with `POST /api/orders/prepare`, booking codes and `search=`, item statuses 100/103/200/202/203/700, `PUT`/`PATCH /api/orders/{id}`; see docs/booking.md).',
    'Changed on every version (a security fix): an invitation by email is accepted only with the secret token its email carries, `POST /api/users/{id}/delegates/{delegateId}/accept` with `{"token"}` (without it: 400; a wrong, spent or expired token: 404), by whichever account is signed in; signing up with an invited address no longer links the invitation, and invitations linked that way and not accepted must be sent again (`POST /api/users/{id}/delegates` with the same `email`, which also sends a new token; see docs/security.md, "Invitations").',
    'Changed on every version: lists follow creation exactly (by `createdAt`, which one instance never repeats, then id), in the default order, `sort=id` and the `id[lt]` of `paging.next`; `id[gt|gte|lt|lte|range]` on a list\'s own id means "made after/before that object"; an order\'s `items` are in the order they were booked, a change\'s new items after them; orders lists read past an `updatedAt` wait for transactions still open (see docs/query-language.md, "Creation order" and "Polling for changes").',
  ].join(' '),
};
