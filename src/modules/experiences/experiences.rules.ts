/**
 * The rules an experience must satisfy beyond its schema, as pure functions: a real ISO
 * 4217 currency, a real IANA time zone, prices in the currency's minor unit, a coherent
 * group size, well-formed schedules and guest types with distinct codes, and schedule price
 * deltas that never make a price negative.
 */
import type { FieldError } from '../../domain/errors.js';
import { decimalsOf, minorDigits, toMinor } from '../../domain/money.js';
import { isTimeZone } from '../schedules/index.js';
import {
  departureTimesOf,
  scheduleErrors,
  scheduleTotalErrors,
  type ScheduleInput,
} from '../schedules/index.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export interface ExperienceDraft {
  price: number;
  currency: string;
  timezone: string;
  orderMin: number | null;
  orderMax: number | null;
  schedules: ScheduleInput[];
  /** What the experience listed before the change (none for a new one). */
  schedulesBefore?: ScheduleInput[];
  demographics: {
    id?: string;
    code: string;
    label?: string;
    name?: string;
    price?: number | null;
  }[];
}

/**
 * Departure times a day over all of an experience's available schedules: every quarter of an
 * hour. Each schedule may list 96 times and an experience have 50 schedules, so without a
 * bound one experience departed every minute, and a public availability request over 50 of
 * them computed millions of departures (docs/booking.md, "Availability").
 */
export const MAX_DEPARTURES_PER_DAY = 96;

export function experienceErrors(draft: ExperienceDraft): FieldError[] {
  const errors: FieldError[] = [];
  const add = (name: string, detail: string) => errors.push({ in: 'body', name, detail });
  if (!CURRENCIES.has(draft.currency))
    add('currency', 'must be an ISO 4217 currency code such as USD or EUR');
  if (!isTimeZone(draft.timezone))
    add('timezone', 'must be an IANA time zone such as Europe/Paris or UTC');
  const digits = minorDigits(draft.currency);
  const priceError = (price: number) =>
    decimalsOf(price) > digits
      ? `must have at most ${digits} decimals (the minor unit of ${draft.currency})`
      : undefined;
  const basePrice = priceError(draft.price);
  if (basePrice) add('price', basePrice);
  const codes = new Set<string>();
  const ids = new Set<string>();
  draft.demographics.forEach((d, i) => {
    if (d.label === undefined && d.name === undefined)
      add(`demographics.${i}.label`, 'is required');
    if (codes.has(d.code)) add(`demographics.${i}.code`, 'is used by another guest type');
    codes.add(d.code);
    // Orders name a guest type by id: two with one id priced a booking of one as the other.
    if (d.id !== undefined && ids.has(d.id))
      add(`demographics.${i}.id`, 'is used by another guest type');
    if (d.id !== undefined) ids.add(d.id);
    const price = d.price === undefined || d.price === null ? undefined : priceError(d.price);
    if (price) add(`demographics.${i}.price`, price);
  });
  if (draft.orderMin !== null && draft.orderMax !== null && draft.orderMin > draft.orderMax) {
    add('group.orderMin', 'must not exceed group.orderMax');
  }
  const prices = [draft.price, ...draft.demographics.map((d) => d.price ?? draft.price)];
  const cheapest = prices.map((p) => toMinor(p, digits)).reduce((low, p) => (p < low ? p : low));
  const scheduleIds = new Set<string>();
  draft.schedules.forEach((schedule, i) => {
    errors.push(...scheduleErrors(schedule, `schedules.${i}.`, 'experience'));
    if (schedule.id !== undefined && scheduleIds.has(schedule.id))
      add(`schedules.${i}.id`, 'is used by another schedule of this experience');
    if (schedule.id !== undefined) scheduleIds.add(schedule.id);
    if (schedule.priceDelta === undefined) return;
    const deltaError = priceError(schedule.priceDelta);
    if (deltaError) add(`schedules.${i}.priceDelta`, deltaError);
    else if (cheapest + toMinor(schedule.priceDelta, digits) < 0n)
      add(`schedules.${i}.priceDelta`, 'would make a price (of a guest type) negative');
  });
  errors.push(...scheduleTotalErrors(draft.schedules, draft.schedulesBefore));
  const times = departureTimesOf(draft.schedules);
  if (times > MAX_DEPARTURES_PER_DAY)
    add(
      'schedules',
      `depart at most ${MAX_DEPARTURES_PER_DAY} times a day over all available schedules (every quarter of an hour); these list ${times} times`,
    );
  return errors;
}
