/**
 * Departures as OCTo availability objects. Status rules (docs/octo.md, "Availability"):
 * closed by hand, or past its cutoff (the start: until then anyone may book), a departure is
 * CLOSED; without a seat limit FREESALE (vacancies and capacity null); with no seat left
 * SOLD_OUT; with less than half its capacity left LIMITED (the specification's own
 * threshold); else AVAILABLE. Seats left are the fewer of its own and the room on the
 * resources it shares with other experiences (docs/resources.md). `available` says whether a booking can take seats there now,
 * for the units asked when a request names some (enough seats, within the group size).
 */
import { minorDigits, toMinor } from '../../domain/money.js';
import { instantToLocal, priceDeltaOf } from '../schedules/index.js';
import type { Departure, Product } from './departures.js';
import { availabilityIdOf } from './departures.js';
import type {
  AvailabilityStatus,
  OctoAvailabilityView,
  OctoPricingView,
  OctoUnitPricingView,
} from './octo.schemas.js';
import { octoPricing, type CommissionBps } from './pricing.js';
import { localDateTime, utc } from './time.js';
import { unitsOf, type Unit } from './units.js';

/** Seats a request asks for, by unit (already checked to be units of the product). */
export interface UnitsAsked {
  unit: Unit;
  quantity: number;
}

export interface AvailabilityOptions {
  now: Date;
  /** octo/pricing asked for: the caller's commission (null: none). Absent: no prices. */
  pricing?: { commission: CommissionBps };
  units?: readonly UnitsAsked[];
}

export interface Seats {
  status: AvailabilityStatus;
  available: boolean;
  vacancies: number | null;
  capacity: number | null;
}

/** Seats a booking would ask for: the units' quantities added up (undefined: none named). */
const seatsAsked = (units?: readonly UnitsAsked[]) =>
  units === undefined ? undefined : units.reduce((sum, u) => sum + u.quantity, 0);

/** The status and seats of a departure now, for `asked` seats if given. */
export function seatsOf(
  departure: Departure,
  group: Product['group'],
  now: Date,
  asked?: number,
): Seats {
  const { reserved, resourceRoom } = departure;
  // Without a seat limit of its own, a departure on a shared resource holds what is taken
  // plus the resource's room.
  const capacity =
    departure.capacity === null && resourceRoom !== undefined
      ? reserved + resourceRoom
      : departure.capacity;
  if (departure.closed || now.getTime() >= departure.start.getTime())
    return { status: 'CLOSED', available: false, vacancies: 0, capacity };
  const vacancies =
    capacity === null
      ? null
      : Math.min(Math.max(capacity - reserved, 0), resourceRoom ?? Number.POSITIVE_INFINITY);
  const status: AvailabilityStatus =
    capacity === null
      ? 'FREESALE'
      : vacancies === 0
        ? 'SOLD_OUT'
        : vacancies! * 2 < capacity
          ? 'LIMITED'
          : 'AVAILABLE';
  const fits =
    asked === undefined ||
    ((vacancies === null || asked <= vacancies) &&
      (group.orderMax === null || asked <= group.orderMax) &&
      (group.orderMin === null || asked >= group.orderMin));
  return { status, available: status !== 'SOLD_OUT' && fits, vacancies, capacity };
}

/**
 * One seat of each unit at a departure: its price plus the departure's priceDelta; without
 * a start, the plain prices (a calendar day without departures shows them).
 */
export function unitPricesAt(
  product: Product,
  start: Date | undefined,
  commission: CommissionBps,
): { unit: Unit; pricing: OctoUnitPricingView }[] {
  const delta = deltaAt(product, start);
  return unitsOf(product).map((unit) => ({
    unit,
    pricing: {
      ...octoPricing(unit.price + delta, product.currency, commission),
      unitId: unit.id,
    },
  }));
}

/** The departure's priceDelta (0 for one opened by hand outside the schedules). */
function deltaAt(product: Product, start: Date | undefined): bigint {
  if (start === undefined) return 0n;
  const { date, hhmm } = instantToLocal(start, product.timezone);
  return toMinor(priceDeltaOf(product.schedules, date, hhmm), minorDigits(product.currency));
}

/** What a booking of the units asked would cost here (outing pricing: the outing, once). */
export function bookingPriceAt(
  product: Product,
  start: Date | undefined,
  commission: CommissionBps,
  units?: readonly UnitsAsked[],
): OctoPricingView | undefined {
  const digits = minorDigits(product.currency);
  if (product.priceType === 'outing')
    return octoPricing(
      toMinor(product.price, digits) + deltaAt(product, start),
      product.currency,
      commission,
    );
  if (units === undefined) return undefined;
  const delta = deltaAt(product, start);
  const retail = units.reduce((sum, u) => sum + (u.unit.price + delta) * BigInt(u.quantity), 0n);
  return octoPricing(retail, product.currency, commission);
}

export function toOctoAvailability(
  product: Product,
  departure: Departure,
  options: AvailabilityOptions,
): OctoAvailabilityView {
  const { start } = departure;
  const end = new Date(start.getTime() + product.duration * 60_000);
  const seats = seatsOf(departure, product.group, options.now, seatsAsked(options.units));
  const view: OctoAvailabilityView = {
    id: availabilityIdOf(product, start),
    localDateTimeStart: localDateTime(start, product.timezone),
    localDateTimeEnd: localDateTime(end, product.timezone),
    utcCutoffAt: utc(start),
    allDay: false,
    ...seats,
    maxUnits: product.group.orderMax,
    openingHours: [],
  };
  if (!options.pricing) return view;
  const { commission } = options.pricing;
  if (product.priceType === 'person')
    view.unitPricing = unitPricesAt(product, start, commission).map((u) => u.pricing);
  const pricing = bookingPriceAt(product, start, commission, options.units);
  if (pricing) view.pricing = pricing;
  return view;
}
