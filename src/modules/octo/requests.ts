/**
 * What an OCTo request asks, checked before anything is read (pure): which dates or
 * availability ids, which units and seats, how long a hold lasts. Each refusal is the OCTo
 * error its validator expects: BAD_REQUEST for a missing or contradictory combination,
 * INVALID_OPTION_ID, INVALID_UNIT_ID (naming the first unknown unit), UNPROCESSABLE_ENTITY
 * for a booking with no unit items.
 */
import { dayNumber } from '../schedules/index.js';
import type { UnitsAsked } from './availability.mapping.js';
import type { ContactInput } from './booking.mapping.js';
import type { Product } from './departures.js';
import type {
  OctoAvailabilityCalendarInput,
  OctoAvailabilityCheckInput,
  OctoGetBookingsInput,
  OctoUnitItemInput,
} from './octo.bodies.js';
import { fail } from './octo.errors.js';
import { OPTION_ID } from './product.mapping.js';
import { unitsOf, type Unit } from './units.js';

/** The longest range of local dates one request may ask about: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_HOLD_MINUTES = 30;

export interface DateRange {
  start: string;
  end: string;
}

export type AvailabilityQuery = { dates: DateRange } | { ids: string[] };

function rangeOf(start: string, end: string): DateRange {
  if (end < start) fail('BAD_REQUEST', 'localDateEnd is before localDateStart');
  if (dayNumber(end) - dayNumber(start) + 1 > MAX_RANGE_DAYS)
    fail('BAD_REQUEST', `at most ${MAX_RANGE_DAYS} days at once`);
  return { start, end };
}

/** The one option every product has. */
export function checkOption(optionId: string): void {
  if (optionId !== OPTION_ID) fail('INVALID_OPTION_ID', optionId);
}

/** Availability check: exactly one of localDate, localDateStart with localDateEnd, availabilityIds. */
export function availabilityQueryOf(body: OctoAvailabilityCheckInput): AvailabilityQuery {
  const { localDate, localDateStart, localDateEnd, availabilityIds } = body;
  const ranged = localDateStart !== undefined || localDateEnd !== undefined;
  const ways = [localDate !== undefined, ranged, availabilityIds !== undefined].filter(Boolean);
  if (ways.length !== 1)
    fail(
      'BAD_REQUEST',
      'send one of localDate, localDateStart and localDateEnd, or availabilityIds',
    );
  if (availabilityIds) return { ids: [...new Set(availabilityIds)] };
  if (localDate !== undefined) return { dates: { start: localDate, end: localDate } };
  if (localDateStart === undefined || localDateEnd === undefined)
    fail('BAD_REQUEST', 'localDateStart and localDateEnd go together');
  return { dates: rangeOf(localDateStart, localDateEnd) };
}

/** Availability calendar: localDateStart and localDateEnd, both required. */
export function calendarRangeOf(body: OctoAvailabilityCalendarInput): DateRange {
  if (body.localDateStart === undefined || body.localDateEnd === undefined)
    fail('BAD_REQUEST', 'localDateStart and localDateEnd are required');
  return rangeOf(body.localDateStart, body.localDateEnd);
}

export type BookingsQuery =
  { resellerReference: string } | { supplierReference: string } | { dates: DateRange };

/**
 * Listing bookings needs a reference or a local date range (every booking of a reseller at
 * once is not a question OCTo asks). With both references, the supplier's is the narrower.
 */
export function bookingsQueryOf(query: OctoGetBookingsInput): BookingsQuery {
  const { supplierReference, resellerReference, localDate, localDateStart, localDateEnd } = query;
  if (supplierReference !== undefined) return { supplierReference };
  if (resellerReference !== undefined) return { resellerReference };
  if (localDate !== undefined) return { dates: { start: localDate, end: localDate } };
  if (localDateStart !== undefined && localDateEnd !== undefined)
    return { dates: rangeOf(localDateStart, localDateEnd) };
  return fail(
    'BAD_REQUEST',
    'send resellerReference, supplierReference, localDate, or localDateStart and localDateEnd',
  );
}

function unitById(product: Pick<Product, 'price' | 'currency' | 'demographics'>) {
  const units = new Map(unitsOf(product).map((u) => [u.id, u]));
  return (id: string): Unit => units.get(id) ?? fail('INVALID_UNIT_ID', id);
}

/** The units an availability request names, each known to the product. */
export function unitsAskedOf(
  product: Pick<Product, 'price' | 'currency' | 'demographics'>,
  units: readonly { id: string; quantity: number }[] | undefined,
): UnitsAsked[] | undefined {
  if (units === undefined) return undefined;
  const find = unitById(product);
  return units.map((u) => ({ unit: find(u.id), quantity: u.quantity }));
}

/** A seat a booking asks for, from one unit item. */
export interface SeatAsked {
  unit: Unit;
  /** The reseller's unit item uuid; null: we choose one. */
  uuid: string | null;
  resellerReference: string | null;
  contact: ContactInput | null;
}

/**
 * The seats of a booking request (reserve, confirm or update with unit items): one per unit
 * item, each of a known unit, no uuid twice; and how many of each guest type that makes, in
 * the product's unit order (what the order's item books).
 */
export function seatsAskedOf(
  product: Pick<Product, 'price' | 'currency' | 'demographics'>,
  unitItems: readonly OctoUnitItemInput[] | undefined,
): { seats: SeatAsked[]; quantities: { demographicId: string | null; quantity: number }[] } {
  if (!unitItems || unitItems.length === 0)
    fail('UNPROCESSABLE_ENTITY', 'a booking needs at least one unit item');
  const find = unitById(product);
  const uuids = new Set<string>();
  const seats = unitItems.map((item): SeatAsked => {
    const unit = find(item.unitId);
    if (item.uuid !== undefined) {
      const uuid = item.uuid.toLowerCase();
      if (uuids.has(uuid)) fail('BAD_REQUEST', `unit item uuid ${item.uuid} is given twice`);
      uuids.add(uuid);
    }
    return {
      unit,
      uuid: item.uuid?.toLowerCase() ?? null,
      resellerReference: item.resellerReference ?? null,
      contact: item.contact ?? null,
    };
  });
  const quantities = unitsOf(product)
    .map((unit) => ({
      demographicId: unit.demographicId,
      quantity: seats.filter((s) => s.unit.id === unit.id).length,
    }))
    .filter((q) => q.quantity > 0);
  return { seats, quantities };
}

/** How long a hold lasts: as asked (the schema bounds it to 5 minutes..24 hours), else 30 minutes. */
export const holdMinutesOf = (expirationMinutes: number | undefined): number =>
  expirationMinutes ?? DEFAULT_HOLD_MINUTES;
