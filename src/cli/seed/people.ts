/**
 * Names and email addresses as SQL expressions of a row key. First and last names are
 * drawn with a skew (Smith and James are common, Lindqvist rare), so substring searches
 * on customer names and emails meet both broad and narrow fragments, as on real data.
 */
import { pick, rnd, textArray } from './sql.js';
import { DOMAINS, FIRST_NAMES, LAST_NAMES } from './words.js';

const FIRST = textArray(FIRST_NAMES);
const LAST = textArray(LAST_NAMES);
const DOMAIN = textArray(DOMAINS);
const NAME_SKEW = 1.7;

export interface PersonStreams {
  first: number;
  last: number;
}

/** `first_name` and `last_name` columns for a `cross join lateral (select ...)`. */
export function nameColumns(seed: number, key: string, streams: PersonStreams): string {
  return `${pick(FIRST, FIRST_NAMES.length, rnd(seed, key, streams.first), NAME_SKEW)} as first_name,
          ${pick(LAST, LAST_NAMES.length, rnd(seed, key, streams.last), NAME_SKEW)} as last_name`;
}

/** `first.last` in lower case, without the spaces and apostrophes of some names. */
export function emailLocalPart(first: string, last: string): string {
  return `lower(regexp_replace(${first} || '.' || ${last}, '[^A-Za-z.]', '', 'g'))`;
}

/** A mail domain, the big providers far more often than the rest. */
export function emailDomain(seed: number, key: string, stream: number): string {
  return pick(DOMAIN, DOMAINS.length, rnd(seed, key, stream), 3);
}
