/**
 * Coercion of raw filter values by field type. Every value that reaches SQL has passed
 * through here, so a malformed date or number is a 400 naming the parameter, never a
 * database error.
 */
import { QueryError } from './errors.js';
import type { FieldSpec, FieldType, Value } from './types.js';

const ID = /^[0-9a-f]{24}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A space where the offset's "+" was: an unencoded "+" in a query string decodes to " ".
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+\- ]\d{2}:?\d{2}))?$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,6})?$/;
const INTEGER = /^-?\d{1,10}$/;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const EXPECTED: Record<FieldType, string> = {
  id: 'an id of 24 lowercase hex characters',
  string: 'a string',
  date: 'a date YYYY-MM-DD',
  datetime: 'a date YYYY-MM-DD or an ISO 8601 date-time with Z or an offset',
  number: 'a decimal number such as 12 or 12.50',
  integer: 'a whole number',
  boolean: 'true or false',
  enum: 'one of the listed values',
  'id-array': 'an id of 24 lowercase hex characters',
};

/** Years PostgreSQL dates and ISO 8601 share (there is no year 0; 10000 needs a sign). */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;
const MAX_INSTANT = Date.UTC(MAX_YEAR, 11, 31, 23, 59, 59, 999);
const MIN_INSTANT = new Date(0).setUTCFullYear(MIN_YEAR, 0, 1);

export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (y < MIN_YEAR || y > MAX_YEAR) return false;
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function parseDate(raw: string): string | undefined {
  const match = DATE.exec(raw);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  return isCalendarDate(y, m, d) ? raw : undefined;
}

/** Epoch milliseconds of an ISO 8601 value; a bare date means midnight UTC. */
function parseDatetime(raw: string): number | undefined {
  const match = DATETIME.exec(raw);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return undefined;
  if (match[4] !== undefined && zone === undefined) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const local = new Date(0);
  local.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  local.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const instant = local.getTime() - offsetMinutes * 60_000;
  // An offset can push 9999-12-31 past the last instant both ends can write.
  return instant >= MIN_INSTANT && instant <= MAX_INSTANT ? instant : undefined;
}

/** Coerces one raw value for `field`; throws `invalid_value` naming `parameter`. */
export function coerceValue(field: FieldSpec, raw: string, parameter: string): Value {
  const fail = (): never => {
    const expected =
      field.type === 'enum'
        ? `one of ${(field.enumValues ?? []).join(', ')}`
        : EXPECTED[field.type];
    throw new QueryError('invalid_value', parameter, `"${clip(raw)}" is not ${expected}.`);
  };
  switch (field.type) {
    case 'id':
    case 'id-array':
      return ID.test(raw) ? raw : fail();
    case 'string':
      // PostgreSQL text cannot hold NUL; refusing it here keeps it a 400.
      return raw.includes('\u0000') ? fail() : raw;
    case 'date':
      return parseDate(raw) ?? fail();
    case 'datetime':
      return parseDatetime(raw) ?? fail();
    case 'number':
      return NUMBER.test(raw) ? Number(raw) : fail();
    case 'integer': {
      const n = Number(raw);
      return INTEGER.test(raw) && n >= INT32_MIN && n <= INT32_MAX ? n : fail();
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : fail();
    case 'enum':
      return field.enumValues?.includes(raw) ? raw : fail();
  }
}

/** Shortens a client's value before quoting it back in an error. */
export function clip(raw: string, max = 60): string {
  return raw.length > max ? `${raw.slice(0, max)}…` : raw;
}
