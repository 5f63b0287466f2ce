/**
 * Input that no handler should ever see, refused once for every route before anything else
 * reads it: text PostgreSQL cannot store (a NUL character, a lone UTF-16 surrogate), JSON
 * nested deeper than any of our objects, and query strings with malformed percent-encoding.
 * One pass over the parsed body, query and path parameters, so no field of any route can be
 * forgotten; the body's pass is held to its route's budget of values (body-limits.ts).
 */
import type { FastifyRequest } from 'fastify';
import { DomainError, type FieldError } from '../domain/errors.js';
import { QueryError } from '../query/errors.js';
import { clip } from '../query/values.js';
import { MAX_JSON_DEPTH, UNROUTED_BUDGET } from './body-limits.js';
import { routeOf } from './route-of.js';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it has a lone surrogate)';
  return undefined;
}

/** Where and why a value is refused: `name` is its dotted path ('' for the whole). */
export interface InputProblem {
  name: string;
  detail: string;
}

/** A problem found below the top: its path, innermost key first, is joined at the end. */
interface Found {
  keys: (string | number)[];
  detail: string;
}

/**
 * The first problem in a parsed value: a bad text (key or value), too deep a nesting, or more
 * values than `budget` (the route's, body-limits.ts). Every value counts one against the
 * budget and the walk stops as soon as it runs out, so no body costs more than its route
 * allows; the path is built only for the problem found. Recursive, but never deeper than
 * MAX_JSON_DEPTH: the depth is checked before descending.
 */
export function findInputProblem(value: unknown, budget = Infinity): InputProblem | undefined {
  const walk = { left: budget };
  const found = visit(value, 0, walk);
  if (!found) return undefined;
  if (found.detail === OVER_BUDGET) {
    return { name: '', detail: `has more than ${budget} values; no valid request has as many` };
  }
  return { name: shownPath(found.keys.reverse()), detail: found.detail };
}

/**
 * A path as a problem shows it: each key clipped, and the whole, so that a refusal never
 * echoes a huge key (twice: in `detail` and in `errors`) back to whoever sent it.
 */
const shownPath = (keys: (string | number)[]): string =>
  clip(keys.map((key) => clip(String(key))).join('.'), MAX_SHOWN_PATH);

const MAX_SHOWN_PATH = 200;

function visit(value: unknown, depth: number, walk: { left: number }): Found | undefined {
  if (--walk.left < 0) return { keys: [], detail: OVER_BUDGET };
  if (typeof value === 'string') {
    const detail = textProblem(value);
    return detail ? { keys: [], detail } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) {
    return { keys: [], detail: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = visit(value[i], depth + 1, walk);
      if (found) return within(found, i);
    }
    return undefined;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const keyDetail = textProblem(key);
    if (keyDetail) {
      return { keys: [key.replace(/[^\x20-\x7e]/g, '?')], detail: `its name ${keyDetail}` };
    }
    const found = visit(object[key], depth + 1, walk);
    if (found) return within(found, key);
  }
  return undefined;
}

const OVER_BUDGET = 'over budget';

/** The budget's refusal names the whole part, not where the count ran out. */
function within(found: Found, key: string | number): Found {
  if (found.detail !== OVER_BUDGET) found.keys.push(key);
  return found;
}

/** A `%` that does not start the escape of an ASCII character (`%00`-`%7F`). */
const BEYOND_ASCII_ESCAPE = /%(?![0-7][0-9A-Fa-f])/;

/**
 * Whether `text` percent-decodes. Escapes of ASCII characters always do, so a text with
 * only those (a list's `%5B`, `%5D`, `%3A`, `%2C`) is not decoded at all: decoding is
 * about 3,000 instructions a parameter, and every request with a query pays it.
 */
const decodes = (text: string): boolean => {
  if (!BEYOND_ASCII_ESCAPE.test(text)) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether a URL's query percent-decodes: the whole query at once (most pay only `decodes`'
 * scan for escapes beyond ASCII). It fails exactly when a part does, since an escape never
 * spans the `&` between parts.
 */
export const queryDecodes = (url: string): boolean => {
  const at = url.indexOf('?');
  return at < 0 || decodes(url.slice(at + 1));
};

/**
 * onRequest: a query string whose percent-encoding is malformed (`%ZZ`, a cut-off `%E0%A4%A`,
 * bytes that are not UTF-8) is refused rather than read as literal text.
 */
export function refuseMalformedQuery(request: FastifyRequest): void {
  if (queryDecodes(request.url)) return;
  // Only now are parts decoded one by one, to name the one at fault.
  const query = request.url.slice(request.url.indexOf('?') + 1);
  const malformed = query.split('&').find((part) => !decodes(part));
  if (malformed === undefined) return;
  const name = malformed.split('=')[0] ?? '';
  // A name that is malformed itself is shown as sent.
  const shown = decodes(name) ? decodeURIComponent(name) : name;
  throw new QueryError(
    'invalid_parameter',
    shown.slice(0, 60),
    'Malformed percent-encoding: every % must start a valid UTF-8 escape (%XX).',
  );
}

const jsonType = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;

/**
 * preValidation: the body, query and path parameters, checked before any other reader. A
 * body of another type than its schema's (an array where an object goes) is refused first,
 * without a walk, in the words validation would use.
 */
export function refuseUnstorableInput(request: FastifyRequest): void {
  const budget = routeOf(request).config.bodyBudget ?? UNROUTED_BUDGET;
  const body: unknown = request.body;
  if (budget.type !== undefined && body !== undefined && jsonType(body) !== budget.type) {
    const detail = `must be ${budget.type}`;
    throw new DomainError('validation_failed', `body ${detail}`, {
      errors: [{ in: 'body', name: 'body', detail }],
    });
  }
  const parts: [FieldError['in'], unknown, number][] = [
    ['body', body, budget.values],
    // Bounded by the URL's length (the headers limit) already.
    ['query', request.query, Infinity],
    ['path', request.params, Infinity],
  ];
  for (const [where, value, budget] of parts) {
    const problem = findInputProblem(value, budget);
    if (!problem) continue;
    const name = problem.name === '' ? where : problem.name;
    throw new DomainError('validation_failed', `${name} ${problem.detail}`, {
      errors: [{ in: where, name, detail: problem.detail }],
    });
  }
}
