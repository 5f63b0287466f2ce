/**
 * Reading `timestamptz` values as PostgreSQL writes them (DateStyle ISO):
 * `2026-05-28 20:00:00.123+00`, `... 09:30:00-04:30`. Every list row carries several (an
 * event four), and pg's parser (postgres-date: three regular expressions and a Date set
 * twice per value) was 6 % of an events page's Node time (docs/performance.md). This reads
 * the common form by character codes; anything else (years before 1000 or after 9999, BC,
 * infinity, a form it does not know) goes to pg's own parser, so the two always agree
 * (test/unit/timestamptz.test.ts holds them to one instant).
 */

const DIGIT_0 = 48;
const COLON = 58;

/** The digits at `from`..`from + count` as a number, or -1 if one is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * The instant's epoch milliseconds, or NaN when `text` is not in the common form
 * (`YYYY-MM-DD HH:MM:SS[.fraction]±HH[:MM[:SS]]`, a four-digit year from 1000).
 */
export function timestamptzMs(text: string): number {
  const n = text.length;
  if (n < 22 || text[4] !== '-' || text[7] !== '-' || text[10] !== ' ') return NaN;
  if (text[13] !== ':' || text[16] !== ':') return NaN;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1000 || month < 1 || day < 1 || hour < 0 || minute < 0 || second < 0) return NaN;
  let at = 19;
  let ms = 0;
  if (text[at] === '.') {
    // Milliseconds are the first three digits; further ones are dropped, as a Date would.
    let scale = 100;
    at++;
    while (at < n) {
      const d = text.charCodeAt(at) - DIGIT_0;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
      at++;
    }
    ms = Math.trunc(ms);
    if (text[at - 1] === '.') return NaN;
  }
  const sign = text[at] === '+' ? 1 : text[at] === '-' ? -1 : 0;
  if (sign === 0) return NaN;
  const parts = [digits(text, at + 1, 2), 0, 0];
  let end = at + 3;
  for (let part = 1; part < 3 && end < n; part++) {
    if (text.charCodeAt(end) !== COLON) return NaN;
    parts[part] = digits(text, end + 1, 2);
    end += 3;
  }
  if (end !== n || parts.some((p) => p < 0)) return NaN;
  const offsetMs = sign * ((parts[0]! * 60 + parts[1]!) * 60 + parts[2]!) * 1000;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMs;
}

/** A pg type parser for `timestamptz`: the common form here, the rest by `fallback`. */
export function timestamptzParser(fallback: (text: string) => unknown): (text: string) => unknown {
  return (text) => {
    const ms = timestamptzMs(text);
    return Number.isNaN(ms) ? fallback(text) : new Date(ms);
  };
}
