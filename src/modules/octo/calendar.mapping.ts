/**
 * The availability calendar: one object per local day of the range, whether or not the day
 * has departures, each aggregating its departures. The day shows its best departure (the
 * one a booking can take with the most seats left; unlimited beats any number): its status,
 * vacancies and capacity. A day with none bookable is SOLD_OUT when one of its departures is
 * sold out, else CLOSED (no departure, all closed or past). Prices are the day's lowest.
 */
import { addDays, dayNumber } from '../schedules/index.js';
import {
  bookingPriceWith,
  deltaOn,
  seatsOf,
  unitPricesWith,
  type AvailabilityOptions,
  type Seats,
} from './availability.mapping.js';
import type { Departure, Product } from './departures.js';
import type { OctoAvailabilityCalendarDayView } from './octo.schemas.js';
import { localDateAndTime } from './time.js';

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

/** A departure with its local time, as the calendar files and prices it. */
interface Dated {
  departure: Departure;
  hhmm: number;
}

/** The departures by local date: each start's local time read once (a year is 35,000 of them). */
function byLocalDate(product: Product, departures: readonly Departure[]): Map<string, Dated[]> {
  const byDate = new Map<string, Dated[]>();
  for (const departure of departures) {
    const { date, hhmm } = localDateAndTime(departure.start, product.timezone);
    const ofDay = byDate.get(date);
    if (ofDay) ofDay.push({ departure, hhmm });
    else byDate.set(date, [{ departure, hhmm }]);
  }
  return byDate;
}

/**
 * The lowest priceDelta of the day's departures (none: 0, the plain prices). Every price of
 * a departure is its units' prices plus its delta, so the day's lowest prices are those at
 * its lowest delta: one set of prices a day, not one per departure (a year of departures
 * every quarter of an hour with 20 units was 700,000 prices and 4 s).
 */
const lowestDelta = (product: Product, date: string, ofDay: readonly Dated[]): bigint =>
  ofDay.reduce<bigint | undefined>((low, { hhmm }) => {
    const delta = deltaOn(product, date, hhmm);
    return low === undefined || delta < low ? delta : low;
  }, undefined) ?? 0n;

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
  const byDate = byLocalDate(product, departures);
  const asked = options.units?.reduce((sum, u) => sum + u.quantity, 0);
  return datesFrom(start, end).map((date) => {
    const ofDay = byDate.get(date) ?? [];
    const day = dayOf(
      date,
      ofDay.map((d) => seatsOf(d.departure, product.group, options.now, asked)),
    );
    if (!options.pricing) return day;
    const { commission } = options.pricing;
    const delta = lowestDelta(product, date, ofDay);
    if (product.priceType === 'person')
      day.unitPricingFrom = unitPricesWith(product, delta, commission).map((u) => u.pricing);
    const from = bookingPriceWith(product, delta, commission, options.units);
    if (from) day.pricingFrom = from;
    return day;
  });
}
