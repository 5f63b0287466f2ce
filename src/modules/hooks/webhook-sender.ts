/**
 * One webhook POST: the signed JSON body to the hook's URL, through the guarded resolver
 * (destination.ts; an address literal is checked before connecting), within a time limit,
 * following no redirect, reading at most 1 KiB of the answer. Never throws: every ending is
 * an outcome the dispatcher records.
 */
import http from 'node:http';
import https from 'node:https';
import type { BookingEnv } from '../../config.js';
import { DestinationError, guardedLookup, literalRefusal } from './destination.js';
import type { AttemptOutcome } from './deliveries.repository.js';

const RESPONSE_BYTES = 1024;

export interface Outgoing {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function webhookSender(env: BookingEnv, timeoutMs: number) {
  const lookup = guardedLookup(env);
  return function send(request: Outgoing): Promise<AttemptOutcome & { ok: boolean }> {
    const started = performance.now();
    const refuse = (error: string) =>
      Promise.resolve({
        statusCode: null,
        error,
        response: null,
        ok: false,
        durationMs: performance.now() - started,
      });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuse('invalid URL');
    }
    const refused = literalRefusal(url, env);
    if (refused) return refuse(refused);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const ok =
          outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
        resolve({ ...outcome, ok, durationMs: performance.now() - started });
      };
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(request.body)),
            'user-agent': 'booking-webhooks/1',
            ...request.headers,
          },
          lookup,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () =>
            finish({
              statusCode: res.statusCode ?? null,
              error: null,
              response: Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8'),
            });
          res.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_BYTES) chunks.push(chunk);
            size += chunk.length;
            // Enough read: the rest of a large answer is not worth the wait.
            if (size >= RESPONSE_BYTES) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', done);
        },
      );
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${timeoutMs} ms`, response: null });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error) =>
        finish({
          statusCode: null,
          error:
            error instanceof DestinationError
              ? error.message
              : `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${error.message}`,
          response: null,
        }),
      );
      req.end(request.body);
    });
  };
}

export type WebhookSend = ReturnType<typeof webhookSender>;
