/**
 * Bookings a reseller makes (OCTo, modules/octo): an order of one item whose seats are held
 * (103) until the reseller confirms, with what the reseller records beside it (its uuid,
 * reference, contact; each seat's own uuid). Pure rules: the reseller as a booker in the
 * orders module's terms, the refusals only resellers meet, which unit item each guest is,
 * and what a booking reads as.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Caller, Reseller } from '../../domain/caller.js';
import { bookerIdOf } from '../../domain/caller.js';
import type { OrderView } from './orders.schemas.js';
import type {
  ResellerBookingRow,
  ResellerGuestRow,
  ResellerSeatRow,
} from './reseller-bookings.repository.js';

/** Why a reseller's request about a booking is refused (OCTo gives each its own code). */
export type RefusalKind =
  | 'unknown_booking'
  | 'uuid_reused'
  | 'not_held'
  | 'hold_expired'
  | 'departure_started'
  | 'ended'
  | 'checked_in'
  | 'too_many_to_list'
  | 'credential_revoked';

/** A refusal a reseller meets; never reaches Xola's API. */
export class ResellerRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ResellerRefusal';
  }
}

export const refuse = (kind: RefusalKind, detail: string): never => {
  throw new ResellerRefusal(kind, detail);
};

/**
 * The reseller as the orders module's rules see a booker: the seller's reservation staff
 * (it holds seats, books for customers it names), acting under its own id (the credential's:
 * domain events name it as the actor). Departures that started are refused separately.
 */
export const resellerAsStaff = (reseller: Reseller): Caller => ({
  id: bookerIdOf(reseller),
  name: reseller.name,
  email: '',
  roles: [],
  apiVersion: '',
  delegations: new Map([[reseller.sellerId, ['ROLE_RESERVATION']]]),
});

/** A seat a reseller asks for: its guest type and what it says of it. */
export interface SeatAsked {
  demographicId: string | null;
  /** The reseller's unit item uuid (lowercase), or null. */
  uuid: string | null;
  resellerReference: string | null;
  contact: Record<string, unknown> | null;
}

/** A booking's contact: the order's customer fields, and the whole of what was sent. */
export interface ContactGiven {
  name: string | null;
  email: string | null;
  phone: string | null;
  sent: Record<string, unknown>;
}

/** A stable uuid for a seat whose reseller sent none: derived from its guest's id. */
export function uuidOfGuest(guestId: string): string {
  const h = createHash('sha256').update(guestId).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A new booking uuid when the reseller sends none. */
export const newBookingUuid = (): string => randomUUID();

/**
 * Which seat asked each live guest is: the first unused one of its guest type, in order.
 * Only seats that say something (a uuid, a reference, a contact) are recorded; the others
 * read with a uuid derived from their guest.
 */
export function seatRows(
  orderId: string,
  guests: readonly { id: string; demographicId: string | null }[],
  seats: readonly SeatAsked[],
): ResellerSeatRow[] {
  const unused = [...seats];
  return guests.flatMap((guest) => {
    const at = unused.findIndex((s) => s.demographicId === guest.demographicId);
    if (at < 0) return [];
    const [seat] = unused.splice(at, 1);
    if (!seat!.uuid && !seat!.resellerReference && !seat!.contact) return [];
    return [
      {
        guest_id: guest.id,
        order_id: orderId,
        uuid: seat!.uuid ?? uuidOfGuest(guest.id),
        reseller_reference: seat!.resellerReference,
        contact: seat!.contact,
      },
    ];
  });
}

/** One seat of a reseller's booking as it reads. */
export interface ResellerSeat {
  id: string;
  uuid: string;
  resellerReference: string | null;
  demographicId: string | null;
  ticketCode: string;
  checkedInAt: Date | null;
  contact: Record<string, unknown> | null;
}

/** A reseller's booking: its order (one item), what the reseller recorded, its seats. */
export interface ResellerBookingRead {
  order: OrderView;
  record: {
    uuid: string;
    resellerReference: string | null;
    contact: Record<string, unknown> | null;
    confirmedAt: Date | null;
    cancellation: { at: Date; reason: string | null; expired: boolean } | null;
  };
  seats: ResellerSeat[];
}

/** The seats to show: the live guests, or once the item ended, those it had then. */
function seatsShown(guests: readonly ResellerGuestRow[]): ResellerGuestRow[] {
  const live = guests.filter((g) => g.canceled_at === null);
  if (live.length > 0) return live;
  const last = Math.max(...guests.map((g) => g.canceled_at?.getTime() ?? 0));
  return guests.filter((g) => g.canceled_at?.getTime() === last);
}

export function readOf(
  order: OrderView,
  row: ResellerBookingRow,
  guests: readonly ResellerGuestRow[],
): ResellerBookingRead {
  const item = order.items[0];
  return {
    order,
    record: {
      uuid: row.uuid,
      resellerReference: row.reseller_reference,
      contact: row.contact,
      confirmedAt: row.confirmed_at,
      cancellation:
        row.ended_at === null
          ? null
          : { at: row.ended_at, reason: row.end_reason, expired: row.expired },
    },
    seats: seatsShown(guests.filter((g) => g.item_id === item?.id)).map((g) => ({
      id: g.id,
      uuid: g.uuid ?? uuidOfGuest(g.id),
      resellerReference: g.reseller_reference,
      demographicId: g.demographic_id,
      ticketCode: g.ticket_code,
      checkedInAt: g.checked_in_at,
      contact: g.contact,
    })),
  };
}
