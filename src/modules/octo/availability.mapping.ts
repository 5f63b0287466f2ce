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
import { priceDeltaOf } from '../schedules/index.js';
import type { Departure, Product } from './departures.js';
import { availabilityIdOf } from './departures.js';
import type {
  AvailabilityStatus,
  OctoAvailabilityView,
  OctoPricingView,
  OctoUnitPricingView,
} from './octo.schemas.js';
import { octoPricing, type CommissionBps } from './pricing.js';
import { localDateAndTime, localDateTime, utc } from './time.js';
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

/** The product's units, worked out once per product (a year's prices ask per departure). */
const unitsOfProduct = (() => {
  const known = new WeakMap<Product, Unit[]>();
  return (product: Product): Unit[] => {
    let units = known.get(product);
    if (!units) known.set(product, (units = unitsOf(product)));
    return units;
  };
})();

/** The priceDelta of a departure at a local date and time (0 for one opened by hand outside the schedules). */
export const deltaOn = (product: Product, date: string, hhmm: number): bigint =>
  toMinor(priceDeltaOf(product.schedules, date, hhmm), minorDigits(product.currency));

/** The departure's priceDelta; without a start (a calendar day without departures), 0. */
function deltaAt(product: Product, start: Date | undefined): bigint {
  if (start === undefined) return 0n;
  const { date, hhmm } = localDateAndTime(start, product.timezone);
  return deltaOn(product, date, hhmm);
}

/** One seat of each unit at a departure whose priceDelta is `delta`: its price plus that. */
export function unitPricesWith(
  product: Product,
  delta: bigint,
  commission: CommissionBps,
): { unit: Unit; pricing: OctoUnitPricingView }[] {
  return unitsOfProduct(product).map((unit) => ({
    unit,
    pricing: {
      ...octoPricing(unit.price + delta, product.currency, commission),
      unitId: unit.id,
    },
  }));
}

/**
 * What a booking of the units asked would cost at a departure whose priceDelta is `delta`
 * (outing pricing: the outing, once); undefined for per-person prices without units asked.
 */
export function bookingPriceWith(
  product: Product,
  delta: bigint,
  commission: CommissionBps,
  units?: readonly UnitsAsked[],
): OctoPricingView | undefined {
  if (product.priceType === 'outing')
    return octoPricing(
      toMinor(product.price, minorDigits(product.currency)) + delta,
      product.currency,
      commission,
    );
  if (units === undefined) return undefined;
  const retail = units.reduce((sum, u) => sum + (u.unit.price + delta) * BigInt(u.quantity), 0n);
  return octoPricing(retail, product.currency, commission);
}

/**
 * How many prices each availability object carries: with octo/pricing, one per unit for
 * per-person prices, and the booking's when there is one (outing pricing, or units asked).
 * What the check's bound weighs (check-bound.ts).
 */
export function pricesPerAvailability(
  product: Product,
  options: Pick<AvailabilityOptions, 'pricing' | 'units'>,
): number {
  if (!options.pricing) return 0;
  const perUnit = product.priceType === 'person' ? unitsOfProduct(product).length : 0;
  const booking = product.priceType === 'outing' || options.units !== undefined ? 1 : 0;
  return perUnit + booking;
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
  const delta = deltaAt(product, start);
  if (product.priceType === 'person')
    view.unitPricing = unitPricesWith(product, delta, commission).map((u) => u.pricing);
  const pricing = bookingPriceWith(product, delta, commission, options.units);
  if (pricing) view.pricing = pricing;
  return view;
}
