/**
 * OCTo's two ways of writing time: `utc*` fields are UTC instants to the second
 * (`2030-06-01T07:00:00Z`: OCTo's validator refuses milliseconds on some of them), and
 * `localDateTime*` fields carry the product's local offset, written exactly as our events'
 * `start` (shared/localIso): `2030-06-01T09:00:00+02:00`, or `…Z` in a UTC zone.
 */
import { localIso } from '../shared/index.js';

export const utc = (instant: Date): string => `${instant.toISOString().slice(0, 19)}Z`;

export const utcOrNull = (instant: Date | null): string | null =>
  instant === null ? null : utc(instant);

/** An instant in the product's zone, as availability ids and local date-times show it. */
export const localDateTime = (instant: Date, timezone: string): string =>
  localIso(instant, timezone);

/** `YYYY-MM-DD` of a local date-time text (its first ten characters). */
export const localDateOf = (localDateTimeText: string): string => localDateTimeText.slice(0, 10);
