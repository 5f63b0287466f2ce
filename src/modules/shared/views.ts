/** Small pieces every API object shares: references and timestamps. */
import { DateTime } from 'luxon';

export interface Ref {
  id: string;
}

export const ref = (id: string): Ref => ({ id });
export const refOrNull = (id: string | null): Ref | null => (id === null ? null : { id });

/** Reads `{id}` out of a reference in an API object (for the query evaluator). */
export const refId = (value: unknown): string | null =>
  value && typeof value === 'object' ? ((value as Ref).id ?? null) : null;

export const iso = (date: Date): string => date.toISOString();

/** An instant as ISO 8601 with the offset it has in `timezone` (e.g. 2019-11-08T10:00:00+01:00). */
export function localIso(instant: Date, timezone: string): string {
  return DateTime.fromJSDate(instant, { zone: timezone }).toISO({ suppressMilliseconds: true })!;
}
