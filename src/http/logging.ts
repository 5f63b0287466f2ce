/**
 * Logger options: pino as Fastify configures it, with the request id on every line and
 * secrets kept out: API keys (header or query string), Authorization headers and any
 * password or apiKey field are redacted, and so is anything shaped like a credential
 * wherever it sits in a logged URL or header (secret-shapes.ts).
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';
import { REDACTED, redactSecrets } from './secret-shapes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `queryHasApiKey` at the first read; use that. */
    queryApiKey: boolean | null;
  }
}

const KEY = 'apikey';
const [AMPERSAND, EQUALS, PERCENT] = [0x26, 0x3d, 0x25];

/** The value of the hexadecimal digit at `at`, or -1 (past the end too). */
function hexAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Whether `text` has `escapes` (upper-case hexadecimal) at `at`, in either case. */
function escapesAt(text: string, at: number, escapes: string): boolean {
  for (let i = 0; i < escapes.length; i++) {
    const code = text.charCodeAt(at + i);
    const upper = code >= 0x61 && code <= 0x7a ? code - 0x20 : code;
    if (upper !== escapes.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * Whether a parameter name in `text`, from `from` on, spells the API key: its letters, read
 * without case and skipping everything else (`apiKey%00`, `apiKey[]`, `api_key`), hold
 * `apikey`. Names end at `=`, parameters at `&`. Escapes are read as what they stand for
 * (`api%4Bey`, `%61piKey`): an ASCII character's as that character, the two whose
 * characters lower-case to an ASCII letter (`%C4%B0`, İ, and `%E2%84%AA`, the Kelvin sign)
 * as that letter (and so are those two characters sent raw), any other as no letter; a `%`
 * that starts no escape is itself. One pass,
 * no decoding and no exception whatever the text: decodeURIComponent threw (and built a
 * stack trace) for each malformed name, thousands a request in a 16 KB URL of `%&%&`.
 */
function spellsApiKey(text: string, from: number): boolean {
  let matched = 0; // letters of `apikey` read so far in this name
  let inName = true;
  for (let at = from; at < text.length; at++) {
    let code = text.charCodeAt(at);
    if (code === AMPERSAND) {
      matched = 0;
      inName = true;
      continue;
    }
    if (!inName) continue;
    if (code === EQUALS) {
      inName = false;
      continue;
    }
    if (code === PERCENT) {
      const high = hexAt(text, at + 1);
      const low = hexAt(text, at + 2);
      if (high < 0 || low < 0) continue;
      code = high * 16 + low;
      at += 2;
      if (code === 0xc4 && escapesAt(text, at + 1, '%B0')) {
        code = 0x69; // i
        at += 3;
      } else if (code === 0xe2 && escapesAt(text, at + 1, '%84%AA')) {
        code = 0x6b; // k
        at += 6;
      } else if (code >= 0x80) continue;
    } else if (code === 0x130)
      code = 0x69; // İ, sent raw
    else if (code === 0x212a) code = 0x6b; // the Kelvin sign, sent raw
    // Upper to lower case; nothing else lands on a letter this way.
    code |= 0x20;
    if (code < 0x61 || code > 0x7a) continue;
    // No prefix of `apikey` is also its suffix: a letter that breaks the run starts again.
    matched = code === KEY.charCodeAt(matched) ? matched + 1 : code === 0x61 ? 1 : 0;
    if (matched === KEY.length) return true;
  }
  return false;
}

/**
 * Whether a query parameter's name, as sent, names the API key, however it is spelled
 * (`spellsApiKey`). Errs on the side of hiding.
 */
export const namesApiKey = (rawName: string): boolean => spellsApiKey(rawName, 0);

/** Whether the URL's query carries an API key, in any spelling. */
export function queryCarriesApiKey(url: string): boolean {
  const at = url.indexOf('?');
  return at >= 0 && spellsApiKey(url, at + 1);
}

/** Gives every request `queryApiKey`, before any is made (Fastify keeps requests' shape). */
export function decorateQueryApiKey(app: FastifyInstance): void {
  app.decorateRequest('queryApiKey', null);
}

/**
 * Whether the request's query carries an API key, worked out once per request: the
 * security headers ask on every answer and the logs on each line that names the request.
 */
export const queryHasApiKey = (request: { url: string; queryApiKey?: boolean | null }) =>
  (request.queryApiKey ??= queryCarriesApiKey(request.url));

/**
 * Filters whose values are customers' and guides' data (an address, a customer's name, a
 * phone, the orders' free-text search): their values stay out of the logs, which keep
 * everything else about the request for whoever runs the service. `name` is not one: it is
 * mostly an experience's, and readable names are what the logs are read for.
 */
const PERSONAL_FILTERS = ['email', 'customerEmail', 'customerName', 'phone', 'search'];
const PERSONAL_NAME = new RegExp(`^(?:${PERSONAL_FILTERS.join('|')})(?:\\[|%5B|$)`, 'i');
const PERSONAL_PARAMETER = new RegExp(
  `(?:^|&)(?:${PERSONAL_FILTERS.join('|')})(?:\\[|%5B|=|&|$)`,
  'i',
);

/** More parameters than any route reads (the query parser refuses past 50). */
const MAX_LOGGED_PARAMETERS = 200;

/**
 * The URL for logs: the value of every API-key parameter (any spelling) replaced, the whole
 * parameter when its name is more than a name (`apikey%3D<key>`), the values of personal
 * filters (`customerEmail[contains]=…`), then anything shaped like a credential in the
 * path or any parameter. `carriesKey` is `queryCarriesApiKey(url)`, when already known:
 * with neither a key nor a personal filter, the parameters are not looked at one by one;
 * with either among more than MAX_LOGGED_PARAMETERS, the whole query is hidden rather than
 * each of thousands of `&`-separated parts looked at on every line.
 */
export function redactUrl(url: string, carriesKey = queryCarriesApiKey(url)): string {
  const at = url.indexOf('?');
  if (at < 0) return redactSecrets(url);
  const search = url.slice(at + 1);
  if (!carriesKey && !PERSONAL_PARAMETER.test(search)) return redactSecrets(url);
  const parts = search.split('&', MAX_LOGGED_PARAMETERS + 1);
  if (parts.length > MAX_LOGGED_PARAMETERS) return redactSecrets(`${url.slice(0, at)}?${REDACTED}`);
  const query = parts.map((part) => {
    const [name = ''] = part.split('=', 1);
    if (PERSONAL_NAME.test(name)) return part.includes('=') ? `${name}=${REDACTED}` : part;
    if (!namesApiKey(name)) return part;
    return name.length <= 16 && part.includes('=') ? `${name}=${REDACTED}` : REDACTED;
  });
  return redactSecrets(`${url.slice(0, at)}?${query.join('&')}`);
}

interface LoggedRequest {
  method: string;
  url: string;
  queryApiKey?: boolean | null;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

const loggedHeader = (value: string | string[] | undefined) =>
  value === undefined ? undefined : redactSecrets(String(value));

/**
 * The top-level text fields of a log line (a database's or a mail relay's error message, a
 * refused value's cause) with credential-shaped text hidden: such messages may quote input.
 */
function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const hidden = redactSecrets(value);
    if (hidden !== value) (copy ??= { ...fields })[key] = hidden;
  }
  return copy ?? fields;
}

export function loggerOptions(
  level: LogLevel,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'password',
        'apiKey',
        '*.password',
        '*.apiKey',
      ],
      censor: REDACTED,
    },
    formatters: { log: redactFields },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url, queryHasApiKey(request)),
        remoteAddress: request.ip,
        apiVersion: loggedHeader(request.headers['x-api-version']),
      }),
    },
  };
}
