/**
 * The check-in desk's objects: a check-in (one guest's arrival, undone by a stamp), the
 * answer of a scan, the bodies of `POST /api/checkins` and Xola's `POST
 * /api/orders/{id}/modify`, and a departure's manifest.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Paging, Ref, Timestamp, listOf, refTo } from '../../http/schemas.js';
import { Event } from '../events/index.js';
import { GUEST_STATUSES } from '../orders/index.js';
import { DateString } from '../shared/index.js';
import { CURSOR_MAX } from './manifest-cursor.js';

const GuestStatus = Type.Enum(GUEST_STATUSES);

export const Checkin = Type.Object(
  {
    object: Type.Literal('checkin'),
    id: Id,
    seller: Ref,
    guest: Ref,
    ticketCode: Type.String({ description: "The guest's ticket code" }),
    demographic: Nullable(Ref),
    guestType: Nullable(Type.String({ description: "The guest type's label as booked" })),
    order: Ref,
    shortCode: Type.String({ description: "The order's short code" }),
    customerName: Type.String(),
    item: Ref,
    event: Ref,
    arrival: Type.String({ format: 'date', description: "The departure's local date" }),
    arrivalTime: Type.Integer({ description: 'HHMM' }),
    source: Type.Enum(['scan', 'modify'], {
      description: 'scan: POST /api/checkins; modify: POST /api/orders/{id}/modify',
    }),
    createdAt: Timestamp,
    createdBy: Nullable(Ref),
    undoneAt: Nullable(Timestamp),
    undoneBy: Nullable(Ref),
  },
  { $id: 'Checkin', description: "A guest's arrival, as recorded at the dock" },
);
export type CheckinView = Static<typeof Checkin>;
export const CheckinList = listOf(Checkin);

export const CheckinResult = Type.Object(
  {
    object: Type.Literal('checkin_result'),
    checkins: Type.Array(Checkin, { description: 'One per guest checked in by this scan' }),
  },
  { $id: 'CheckinResult' },
);
export type CheckinResultView = Static<typeof CheckinResult>;

export const CheckinBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9]+$',
      description:
        "A guest's ticket code (that guest), an item's ticket code (its guests) or the order's short code (its guests not yet arrived on today's departures); any case",
    }),
    force: Type.Optional(
      Type.Boolean({ description: 'Check in although the departure is on another local day' }),
    ),
    seller: Type.Optional(
      Type.Object(
        { id: Id },
        {
          additionalProperties: false,
          description: 'The seller whose short code it is, when the caller works for several',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CheckinInput = Static<typeof CheckinBody>;

export const ModifyOrderBody = Type.Object(
  {
    updates: Type.Object(
      {
        guestStatus: Type.Enum(GUEST_STATUSES, {
          description: 'Set on every live guest of the order (arrived: a check-in each)',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ModifyOrderInput = Static<typeof ModifyOrderBody>;

const ManifestGuest = Type.Object({
  id: Id,
  name: Type.String({ description: "The order's customer name" }),
  guestType: Nullable(Type.String({ description: "The guest type's label (null: the default)" })),
  demographic: Nullable(Ref),
  order: Ref,
  shortCode: Type.String(),
  ticketCode: Type.String(),
  guestStatus: GuestStatus,
  checkedInAt: Nullable(Timestamp),
  itemStatus: Type.Integer({ description: "The item's status: 100 pending, 103 on hold, 2xx" }),
  notes: Type.Array(Type.String(), {
    description:
      "The order's notes, clipped to 1,000 characters in all (the last one kept then ends with …; the order keeps them whole)",
  }),
});

export const Manifest = Type.Object(
  {
    object: Type.Literal('manifest'),
    event: refTo(Event),
    date: DateString,
    timezone: Type.String(),
    guides: Type.Array(
      Type.Object({
        id: Id,
        name: Type.String(),
        phone: Nullable(Type.String()),
        status: Type.Enum(['pending', 'confirmed', 'declined']),
      }),
    ),
    counts: Type.Object({
      booked: Type.Integer({ description: 'Live guests' }),
      arrived: Type.Integer(),
      noShow: Type.Integer(),
      pending: Type.Integer(),
    }),
    guests: Type.Array(ManifestGuest, {
      description:
        'By customer name, then booking; as many as fit in one response (counts are of all): paging.next names the rest',
    }),
    paging: refTo(Paging),
  },
  { $id: 'Manifest', description: "A departure's guides and live guests, for the dock" },
);
export type ManifestView = Static<typeof Manifest>;

export const ManifestQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Enum(['json', 'csv', 'html'], {
        description: 'Or send Accept: text/csv; html is a printable page',
      }),
    ),
    startingAfter: Type.Optional(
      Type.String({
        minLength: 24,
        maxLength: CURSOR_MAX,
        pattern: '^[A-Za-z0-9_-]+$',
        description:
          "The guests after this cursor: send paging.next of the previous page as it is (an opaque token; a guest's id, what it named before, is still read)",
      }),
    ),
  },
  { additionalProperties: false },
);
