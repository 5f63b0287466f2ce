/**
 * The availability calendar: one object per local day of the range, whether or not the day
 * has departures, each aggregating its departures. The day shows its best departure (the
 * one a booking can take with the most seats left; unlimited beats any number): its status,
 * vacancies and capacity. A day with none bookable is SOLD_OUT when one of its departures is
 * sold out, else CLOSED (no departure, all closed or past). Prices are the day's lowest.
 */
import { addDays, dayNumber, instantToLocal } from '../schedules/index.js';
import {
  bookingPriceAt,
  seatsOf,
  unitPricesAt,
  type AvailabilityOptions,
  type Seats,
} from './availability.mapping.js';
import type { Departure, Product } from './departures.js';
import type { OctoAvailabilityCalendarDayView, OctoUnitPricingView } from './octo.schemas.js';
import { lowest } from './pricing.js';

/** Every local date from start to end, both included. */
export const datesFrom = (start: string, end: string): string[] =>
  Array.from({ length: Math.max(0, dayNumber(end) - dayNumber(start) + 1) }, (_, i) =>
    addDays(start, i),
  );

/** More seats first; unlimited (null) beats any number. */
const roomier = (a: Seats, b: Seats) =>
  a.vacancies === null ? a : b.vacancies === null ? b : a.vacancies >= b.vacancies ? a : b;

function dayOf(date: string, seats: readonly Seats[]): OctoAvailabilityCalendarDayView {
  const bookable = seats.filter((s) => s.available);
  if (bookable.length > 0) {
    const best = bookable.reduce(roomier);
    return { localDate: date, ...best, openingHours: [] };
  }
  const soldOut = seats.filter((s) => s.status === 'SOLD_OUT');
  return {
    localDate: date,
    available: false,
    status: soldOut.length > 0 ? 'SOLD_OUT' : 'CLOSED',
    vacancies: 0,
    capacity:
      soldOut.length > 0 ? soldOut.reduce((max, s) => Math.max(max, s.capacity ?? 0), 0) : 0,
    openingHours: [],
  };
}

/** The lowest price of each unit over the day's starts (none: the plain prices). */
function unitPricesFrom(
  product: Product,
  starts: readonly (Date | undefined)[],
  commission: number | null,
): OctoUnitPricingView[] {
  const byUnit = new Map<string, OctoUnitPricingView[]>();
  for (const start of starts)
    for (const { unit, pricing } of unitPricesAt(product, start, commission))
      byUnit.set(unit.id, [...(byUnit.get(unit.id) ?? []), pricing]);
  return [...byUnit.values()].map((prices) => lowest(prices)!);
}

/**
 * The calendar of `product` from `start` to `end` (local dates, both included), given its
 * departures in (or around) that range; departures outside it are left out.
 */
export function toOctoCalendar(
  product: Product,
  departures: readonly Departure[],
  start: string,
  end: string,
  options: AvailabilityOptions,
): OctoAvailabilityCalendarDayView[] {
  const byDate = new Map<string, Departure[]>();
  for (const d of departures) {
    const { date } = instantToLocal(d.start, product.timezone);
    byDate.set(date, [...(byDate.get(date) ?? []), d]);
  }
  const asked = options.units?.reduce((sum, u) => sum + u.quantity, 0);
  return datesFrom(start, end).map((date) => {
    const ofDay = byDate.get(date) ?? [];
    const day = dayOf(
      date,
      ofDay.map((d) => seatsOf(d, product.group, options.now, asked)),
    );
    if (!options.pricing) return day;
    const { commission } = options.pricing;
    const starts = ofDay.length > 0 ? ofDay.map((d) => d.start) : [undefined];
    if (product.priceType === 'person')
      day.unitPricingFrom = unitPricesFrom(product, starts, commission);
    const from = lowest(
      starts.flatMap((at) => bookingPriceAt(product, at, commission, options.units) ?? []),
    );
    if (from) day.pricingFrom = from;
    return day;
  });
}
