/**
 * Logger options: pino as Fastify configures it, with the request id on every line and
 * secrets kept out: API keys (header or query string), Authorization headers and any
 * password or apiKey field are redacted.
 */
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

const REDACTED = '[redacted]';

/** Removes the value of an `apiKey` query parameter from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]apikey=)[^&#]*/gi, `$1${REDACTED}`);
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
