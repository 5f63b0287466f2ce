/**
 * Logger options: pino as Fastify configures it, with the request id on every line and
 * secrets kept out: API keys (header or query string), Authorization headers and any
 * password or apiKey field are redacted, and so is anything shaped like a credential
 * wherever it sits in a logged URL or header (secret-shapes.ts).
 */
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';
import { REDACTED, redactSecrets } from './secret-shapes.js';

/**
 * Whether a query parameter, as sent, names the API key, however it is spelled: decoded
 * first (`api%4Bey`, `%61piKey`), then compared without case or anything but letters
 * (`apiKey%00`, `apiKey[]`, `api_key`). Errs on the side of hiding.
 */
export function namesApiKey(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // malformed: judge the raw text
  }
  return name
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .includes('apikey');
}

/** Whether the URL's query carries an API key, in any spelling. */
export const queryCarriesApiKey = (url: string): boolean =>
  url.includes('?') &&
  url
    .slice(url.indexOf('?') + 1)
    .split('&')
    .some((part) => namesApiKey(part.split('=')[0] ?? ''));

/**
 * The URL for logs: the value of every API-key parameter (any spelling) replaced, the whole
 * parameter when its name is more than a name (`apikey%3D<key>`), then anything shaped like
 * a credential in the path or any parameter.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return redactSecrets(url);
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const [name = ''] = part.split('=', 1);
      if (!namesApiKey(name)) return part;
      return name.length <= 16 && part.includes('=') ? `${name}=${REDACTED}` : REDACTED;
    });
  return redactSecrets(`${url.slice(0, at)}?${query.join('&')}`);
}

interface LoggedRequest {
  method: string;
  url: string;
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
        url: redactUrl(request.url),
        remoteAddress: request.ip,
        apiVersion: loggedHeader(request.headers['x-api-version']),
      }),
    },
  };
}
