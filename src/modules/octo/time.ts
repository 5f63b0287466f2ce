/**
 * OCTo's two ways of writing time: `utc*` fields are UTC instants to the second
 * (`2030-06-01T07:00:00Z`: OCTo's validator refuses milliseconds on some of them), and
 * `localDateTime*` fields carry the product's local offset, written exactly as our events'
 * `start` (shared/localIso): `2030-06-01T09:00:00+02:00`, or `…Z` in a UTC zone.
 */
import { instantToLocal } from '../schedules/index.js';
import { localIso } from '../shared/index.js';

export const utc = (instant: Date): string => `${instant.toISOString().slice(0, 19)}Z`;

export const utcOrNull = (instant: Date | null): string | null =>
  instant === null ? null : utc(instant);

/** An instant in the product's zone, as availability ids and local date-times show it. */
export const localDateTime = (instant: Date, timezone: string): string =>
  localIso(instant, timezone);

/**
 * The local date and HHMM time of an instant in the product's zone, read off its local text:
 * Luxon's way (instantToLocal) costs about 15 µs, 0.5 s over a year of departures every
 * quarter of an hour (the calendar's). Years that text does not write as four digits: Luxon.
 */
export function localDateAndTime(instant: Date, timezone: string): { date: string; hhmm: number } {
  const text = localDateTime(instant, timezone);
  if (text[10] !== 'T') return instantToLocal(instant, timezone);
  const hhmm = Number(text.slice(11, 13)) * 100 + Number(text.slice(14, 16));
  return { date: text.slice(0, 10), hhmm };
}

/** `YYYY-MM-DD` of a local date-time text (its first ten characters). */
export const localDateOf = (localDateTimeText: string): string => localDateTimeText.slice(0, 10);
