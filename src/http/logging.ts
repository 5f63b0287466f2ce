/**
 * Logger options: pino as Fastify configures it, with the request id on every line and
 * secrets kept out: API keys (header or query string), Authorization headers and any
 * password or apiKey field are redacted.
 */
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

const REDACTED = '[redacted]';

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

/** The URL with the value of every API-key parameter (any spelling) replaced, for logs. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const [name = ''] = part.split('=', 1);
      return namesApiKey(name) ? `${name}=${REDACTED}` : part;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
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
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
        apiVersion: request.headers['x-api-version'],
      }),
    },
  };
}
