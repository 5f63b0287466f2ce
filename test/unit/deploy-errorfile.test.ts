/**
 * HAProxy's own 503 (deploy/haproxy-503.http, sent when no instance is ready): a whole HTTP
 * response that HAProxy sends as written, so its framing is ours to get right. It is the
 * service's problem+json with Retry-After, delimited by its Content-Length (not by closing
 * the connection: an outage should not make every client reconnect for each retry).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const file = fs.readFileSync(path.join(import.meta.dirname, '../../deploy/haproxy-503.http'));

describe('deploy/haproxy-503.http', () => {
  const text = file.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const [status, ...lines] = text.slice(0, split).split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  const body = file.subarray(Buffer.byteLength(text.slice(0, split)) + 4);

  it('is a 503 whose Content-Length is its body, and does not close the connection', () => {
    expect(split).toBeGreaterThan(0);
    expect(status).toBe('HTTP/1.1 503 Service Unavailable');
    expect(Number(headers.get('content-length'))).toBe(body.length);
    expect(headers.has('connection')).toBe(false);
    expect(lines.every((line) => line.includes(':') && !line.includes('\n'))).toBe(true);
  });

  it("is the service's problem+json with Retry-After", () => {
    expect(headers.get('content-type')).toBe('application/problem+json');
    expect(headers.get('retry-after')).toBe('2');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      type: 'urn:problem-type:booking:service_unavailable',
    });
  });
});
