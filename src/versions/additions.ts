/**
 * Changes that are additions on every version (new fields, new accepted input, fixes a
 * client cannot be hurt by), newest first: they need no dated version, but client developers
 * still read about them in docs/changelog.md (rendered by changelog.ts).
 */
export interface Addition {
  /** `YYYY-MM-DD`: when it shipped. */
  readonly date: string;
  readonly description: string;
}

export const additions: readonly Addition[] = [
  {
    date: '2026-12-08',
    description: [
      'Seventh security and robustness round (docs/security.md, docs/octo.md, docs/operations.md, docs/operations-day.md):',
      'the manifest’s `paging.next` cursor is sealed (encrypted and authenticated: it no longer carries the customer’s name readably); an altered, made-up or other departure’s cursor is `400 invalid_parameter`, and the previous release’s cursors are still read in this release;',
      'OCTo: a credential revoked while one of its reserves was under way keeps no hold (the hold is released with the credential’s others, or the reserve is refused `FORBIDDEN`); an availability check whose events opened by hand pass twice its bound is refused (`BAD_REQUEST`) before they are read;',
      'a request whose statement gives up at a `lock_timeout` set on the database role or database answers `503 service_unavailable` with `Retry-After` (it was `500`);',
      'webhooks: while stalled receivers fill the shared delivery slots, a tenant holding none of them may have up to 4 deliveries in flight from the reserve (it was 1); on SIGTERM a server stops claiming webhook deliveries and emails at once, and closes a connection still open 5 s into its close (a client still sending its body) without an answer.',
    ].join(' '),
  },
  {
    date: '2026-12-07',
    description: [
      'Sixth security and robustness round (docs/security.md, docs/octo.md, docs/webhooks.md, docs/operations-day.md): a user’s `name` of spaces alone is `400`, from the API and from `cli users create`, which now applies the API’s rules for name, email and password;',
      'OCTo: one availability check answers at most 6,000 departures, each price of `octo/pricing` counting half a departure (`BAD_REQUEST`: ask for fewer dates); copies of one reserve sent at once answer as its repeat, never as sold out; revoking a credential releases its holds (`EXPIRED`); a hold lasts at most 24 hours from its reserve however often it is extended (`UNPROCESSABLE_ENTITY`);',
      'a short code scanned at the dock checks the day first: `409 item_not_confirmed` when today’s guests are all on unconfirmed items (it said `wrong_day` when another day’s item was confirmed); the manifest’s `startingAfter` is an opaque token that carries the page’s sort key (a guest id is still read; a token that is not this departure’s is `400 invalid_parameter`);',
      'deleting a guide sends `event.update` for each future event it leaves; identical assignments, unassignments and answers sent at once change and announce once (a repeated `DELETE` is `404`);',
      'confirmation and cancellation emails name the booking’s short code in their subject, never the seller’s text, and a seller’s bookings confirm to at most `SELLER_CONFIRMATIONS_PER_DAY` (500) addresses not its own a day (the bookings stand, without email);',
      'a webhook resent while an attempt is in flight is sent again after it, never beside it; a NUL in a receiver’s answer is stored as U+FFFD;',
      'answers a shared cache may keep say `Vary: Origin, X-Publishable-Key, X-API-Version`; `X-API-Version` reads years below 100 as such.',
    ].join(' '),
  },
  {
    date: '2026-12-07',
    description: [
      'Fifth security and robustness round (docs/security.md, docs/operations.md): `GET /api/demographics` needs `seller=` or `experience=` (`400 invalid_parameter` otherwise); a date-time filter value finer than a millisecond is `400 invalid_value` unless the extra digits are zeros; sellers, affiliates and hooks sort by name or URL in byte order on every server;',
      'availability’s bound of 100,000 departures a request counts the events opened by hand, for one experience, for several and in OCTo’s availability and calendar (`400` naming `end`; OCTo `BAD_REQUEST`);',
      '`POST /api/events` refuses a start that availability and bookings cannot name (seconds, or the first occurrence of a time lived twice on a fall-back night: `400` naming `start`), `PATCH` cannot open an event stored at one (`400` naming `manual`), and OCTo refuses such an availability id (`INVALID_AVAILABILITY_ID`);',
      'a publishable key’s ceiling counts guest bookings made or in flight, and `HEAD` is held to the key’s seller like `GET`;',
      'a password or email change that lost a race with another change, or a key rotation with another rotation, is `403` instead of being silently undone; concurrent wrong passwords meet the throttle;',
      '`DELETE /api/users/{id}/meta/{key}` decodes the key once;',
      'a database that is out of disk or memory is `503 service_unavailable`, and so is a statement left unanswered 40 s (a stalled connection).',
    ].join(' '),
  },
  {
    date: '2026-12-07',
    description: [
      'Fourth security and robustness round (docs/security.md): `GET /api/events/{id}/manifest` clips each order’s notes to 1,000 characters, holds about 2 MiB of guests a page and names the rest in `paging.next` (`?startingAfter=<guest id>`, and a `Link` header in every format), and lists only the guides working the departure (not those who declined or were deleted);',
      'the dock checks in only guests of confirmed items (`409 item_not_confirmed`), a customer cannot cancel or change an item once its guests have checked in (`409 guest_checked_in`; the seller still can), a hold whose guests checked in becomes pending (100) at its deadline instead of canceled, and a canceled guest’s check-in is undone with it (undoing it after is `409 guest_canceled`);',
      'a removed delegate’s answer to an assignment is `404`, a guide deleted twice is `404` the second time, and before 2018-02-26 a guide named by its guide id is checked against its schedules and the `guides` filter resolves users only to guides the caller may know of;',
      'a retried sign-up shows `apiKey` only while it is still the key that sign-up gave; a metadata value holding a number JSON cannot keep (`1e400`) is `400 metadata_invalid`;',
      'settled webhook deliveries are kept 30 days (`RETENTION_DAYS`; docs/operations.md "Retention");',
      'OCTo: `GET /octo/bookings` lists at most 2,000 unit items (`BAD_REQUEST` past them: ask for fewer dates), `GET /octo/webhooks` shows each webhook’s `status` (`ENABLED`, `DISABLED`; ours, not OCTo’s), registering a disabled one again enables it with a new secret, and one registered while its credential is revoked is `FORBIDDEN`.',
    ].join(' '),
  },
  {
    date: '2026-12-07',
    description: [
      'Third security and robustness round (docs/security.md): a page of `GET /api/orders` ends before the order that would take it past 1 MiB of JSON and `paging.next` goes on from there (a page may hold fewer than `limit` orders; follow `paging.next` to `null`);',
      'an experience’s or a guide’s schedules together list at most 1,000 dates and 500 times and time ranges (`400` naming `schedules`);',
      'changing an experience’s resources or `seatsPerGuest` counts its departures to come again (`409 resource_full` when they do not fit), and quotes count a departure’s resources over its event’s own window;',
      '`X-Ignored-Fields` percent-encodes a name a header cannot carry, a `304` has no `Content-Length`, errors clip the input they repeat, `name[toString]=x` is `400 unknown_operator`;',
      'a confirmation still queued when an order’s `customerEmail` changes goes to the new address (within the relay caps), never to the old one;',
      'a statement the database cancels after 30 s is `503 service_unavailable`.',
    ].join(' '),
  },
  {
    date: '2026-12-07',
    description: [
      'Security and robustness round (docs/security.md): a staff hold (103) or pending order (100) sends its confirmation email only when a change confirms one of its items;',
      '`POST /api/events` that moves an existing event’s window checks the guides it keeps again (`409 guide_unavailable` / `guide_conflict`);',
      'a guest checkout books at most 50 seats an order, its Idempotency-Key is scoped to the publishable key (not the client address), its key’s ceiling counts bookings made, and its confirmations reach one address at most 3 times a day;',
      'hooks, affiliates and publishable keys show `createdBy`, and what a delegate made ends when its delegation does;',
      'an account mails one address at most 3 invitations an hour and 30 in all (`429 rate_limited`), sign-ups at most 20 an hour from one address, and a wrong `currentPassword` counts as a failed sign-in;',
      'on older versions a user’s `metadata` is returned as stored, two query parameters that become one after the version’s rewrite are `400 repeated_parameter`, errors and `X-Ignored-Fields` name what the client sent rather than the rewritten request, and before 2017-09-28 `PUT`/`PATCH /api/orders/{id}` take the item fields at the top of the body.',
    ].join(' '),
  },
  {
    date: '2026-11-26',
    description: [
      'The operator’s day (docs/operations-day.md): every order item shows its `guests` (one per seat: `id`, `demographic`, its own `ticketCode`, `guestStatus` pending, arrived or no_show) and the item’s aggregate `guestStatus`;',
      '`POST /api/checkins` checks guests in by a scanned ticket or short code, `DELETE /api/checkins/{id}` undoes one, Xola’s `POST /api/orders/{id}/modify` sets an order’s guests;',
      '`GET /api/events/{id}/manifest` lists a departure’s guides and guests (JSON, CSV, a printable page); delegates may have the role `ROLE_CHECKIN`;',
      'resources shared by experiences (docs/resources.md): `/api/resources` (`{name, capacity}`), experiences’ `resources: [{resource: {id}, seatsPerGuest}]`, a departure taking their seats over its time or `409 resource_full`, availability no more than their room.',
    ].join(' '),
  },
  {
    date: '2026-11-26',
    description: [
      'Xola compatibility round 3: `expand=` may name a relation the object already embeds (an experience’s `schedules`, `demographics`, `group`, `guide`; a guide’s `user`, `schedules`; an order’s `items`), to no effect;',
      '`offset` is another name for `skip` on every list (both with different values: 400 `invalid_paging`);',
      'order and quote items take guest counts as Xola’s `lineItems` (`[{"object": "lineitem_demographic", "demographic": {"id"}, "quantity"}]`, read as `demographics`; both given and different: 400)',
      'and show `lineItems` (`object`, `demographic`, `quantity`, `price`, `amount`) and the order’s `shortCode` on each item;',
      'an item entry of `PUT`/`PATCH /api/orders/{id}` that names an `id` keeps the fields it leaves out (`{"id", "quantity": 3}` resizes it in place);',
      'new and rotated API keys are letters and digits only (43 characters; earlier keys keep working), publishable keys `pk_` and 32 letters and digits.',
    ].join(' '),
  },
];
