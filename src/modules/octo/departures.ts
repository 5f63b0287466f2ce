/**
 * A departure as OCTo needs it (an experience at a start, with its seats), and its
 * availability id. The id is the departure's local start with its offset
 * (`2030-06-01T09:00:00+02:00`), as most OCTo suppliers write it: it exists before the
 * departure has an event row, never changes, reads well in a reseller's logs, and is unique
 * within a product even on a fall-back night (the two 01:30s have different offsets). An id
 * is accepted only in the exact form we issue it for the product's zone.
 */
import { DateTime } from 'luxon';
import type { ExperienceView } from '../experiences/index.js';
import {
  instantToLocal,
  isDepartureStart,
  isScheduled,
  type ScheduleInput,
} from '../schedules/index.js';
import { localDateTime } from './time.js';

export interface Departure {
  start: Date;
  /** Seats in all: the event's max, or the experience's outingMax before it has an event; null: unlimited. */
  capacity: number | null;
  /** Seats taken (0 before the departure has an event). */
  reserved: number;
  /** Closed by hand (the event's `manual` is false). */
  closed: boolean;
  /** Guests the resources it shares still fit, when its experience uses any. */
  resourceRoom?: number;
}

/** What the mapping reads of an experience (its public view). */
export type Product = Pick<
  ExperienceView,
  | 'id'
  | 'name'
  | 'timezone'
  | 'duration'
  | 'price'
  | 'priceType'
  | 'currency'
  | 'demographics'
  | 'schedules'
  | 'group'
>;

/** The availability id of a departure of `product`. */
export const availabilityIdOf = (product: Pick<Product, 'timezone'>, start: Date): string =>
  localDateTime(start, product.timezone);

const ID_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The start an availability id names, or undefined when it is not an id we would issue for
 * this product (malformed, another zone's form, a local time that does not exist, seconds, or
 * the first of a local time lived twice on a fall-back night: departures are named by local
 * date and HHMM, which means the second). Whether a departure is there at that start is the
 * caller's question (schedules, events opened by hand).
 */
export function startOfAvailabilityId(
  product: Pick<Product, 'timezone'>,
  id: string,
): Date | undefined {
  if (!ID_FORM.test(id)) return undefined;
  const parsed = DateTime.fromISO(id, { setZone: true });
  if (!parsed.isValid) return undefined;
  const start = parsed.toJSDate();
  return availabilityIdOf(product, start) === id && isDepartureStart(start, product.timezone)
    ? start
    : undefined;
}

/** Whether the product's schedules offer a departure at `start` (events opened by hand aside). */
export function isScheduledStart(
  product: Pick<Product, 'timezone'> & { schedules: readonly ScheduleInput[] },
  start: Date,
): boolean {
  const { date, hhmm } = instantToLocal(start, product.timezone);
  return isScheduled(product.schedules, date, hhmm);
}
