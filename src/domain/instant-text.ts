/**
 * An instant's ISO 8601 text, written from its epoch milliseconds: what `toISOString`
 * writes (`2026-05-28T20:00:00.123Z`), and the wall-clock part and offset of a local time.
 * Every timestamp of every view goes through here (an events page has four per row), and
 * every datetime a list filter binds (query/operators.ts); V8's
 * `toISOString` formats through its C++ runtime, and measured with the JSON encoding after
 * it (bench of 10,000 instants) took 525 ns a call against 210 ns for this (issue 27). The
 * date part is kept per day (a page's instants share a few days), the clock part is read
 * from tables.
 */

const DAY_MS = 86_400_000;
/** 0001-01-01 and 10000-01-01: outside, `toISOString` writes six-digit years; it is used. */
const FIRST_MS = Date.parse('0001-01-01T00:00:00Z');
const END_MS = Date.parse('9999-12-31T00:00:00Z') + DAY_MS;
/** Days whose date text is kept; emptied when full (a page reads a few). */
const MAX_DAYS = 4096;

const TWO = Array.from({ length: 60 }, (_, i) => (i < 10 ? `0${i}` : String(i)));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const days = new Map<number, string>();

/** `YYYY-MM-DDThh:mm:ss`, and `.sss` when `millis`, of `ms` read as UTC (years 1-9999). */
function clockText(ms: number, millis: boolean): string {
  const day = Math.floor(ms / DAY_MS);
  let date = days.get(day);
  if (date === undefined) {
    if (days.size >= MAX_DAYS) days.clear();
    date = new Date(day * DAY_MS).toISOString().slice(0, 11);
    days.set(day, date);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.trunc(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.trunc(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.trunc(rest / 1000);
  const text = `${date}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}`;
  return millis ? `${text}.${THREE[rest - seconds * 1000]}` : text;
}

const inRange = (ms: number) => ms >= FIRST_MS && ms < END_MS;

/** `new Date(ms).toISOString()`, the same text. */
export function utcIso(ms: number): string {
  return inRange(ms) ? `${clockText(ms, true)}Z` : new Date(ms).toISOString();
}

/**
 * The wall clock of `localMs` (an instant shifted by its zone's offset) without a zone:
 * `YYYY-MM-DDThh:mm:ss`, with `.sss` only when the milliseconds are not 0 (Luxon's
 * `suppressMilliseconds`); undefined outside years 1-9999.
 */
export function wallClockText(localMs: number): string | undefined {
  // A historical zone's offset may hold seconds as a fraction of a minute: as a Date would,
  // the milliseconds are truncated.
  const ms = Math.trunc(localMs);
  if (!inRange(ms)) return undefined;
  return clockText(ms, ms % 1000 !== 0);
}

/** Offset texts by minutes east: a page's instants share a few. */
const offsetTexts = new Map<number, string>();

/** `+hh:mm` / `-hh:mm` of an offset in minutes east (seconds of a historical one dropped). */
export function offsetText(minutes: number): string {
  let text = offsetTexts.get(minutes);
  if (text === undefined) {
    const size = Math.abs(minutes);
    text = `${minutes < 0 ? '-' : '+'}${TWO[Math.trunc(size / 60)]}:${TWO[Math.trunc(size % 60)]}`;
    // Whole minutes in all but a few historical zones: the map stays small.
    if (offsetTexts.size < 1024) offsetTexts.set(minutes, text);
  }
  return text;
}
