/**
 * Values the schema alone let through, each of which failed late or meant something else
 * than written: a HOST with a port (found only when `listen` failed, the database made), a
 * headers timeout silently clamped to the request timeout, limits without a maximum, an
 * SMTP_URL that does not parse: each now stops start-up naming the variable. A DATA_DIR too
 * long for its admin socket (truncated by the system, out of the directory) is never used
 * as one: the server starts without it, its commands refuse.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSocketPath, ConfigError, loadConfig } from '../../src/config.js';

const ON_SERVER = { BOOKING_SECRET: 's'.repeat(40), DATABASE_URL: 'postgres://u@db/b' };

/** The message loadConfig refuses `env` with (fails the test if it does not). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return expect.unreachable(`accepted ${JSON.stringify(env)}`);
}

/** A directory whose admin socket's path (`<dir>/admin.sock`) is `bytes` long. */
const dirWithSocketOf = (bytes: number) => {
  const base = path.join(os.tmpdir(), 'booking-');
  return base + 'd'.repeat(bytes - base.length - '/admin.sock'.length);
};

describe('HOST', () => {
  it.each(['localhost:3000', 'http://0.0.0.0', '0.0.0.0:80', 'my host', '[::1]', '-x'])(
    'refuses %s, naming HOST and what it must be',
    (host) => {
      const message = refusal({ HOST: host });
      expect(message).toContain('HOST must be an IP address or a host name');
      expect(message).toContain(`(got "${host}")`);
    },
  );

  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'app.internal', 'booking_app'])(
    'accepts %s',
    (host) => {
      expect(loadConfig({ HOST: host }).host).toBe(host);
    },
  );
});

describe('DATA_DIR', () => {
  it('names the admin socket only when it fits a Unix socket, counted in bytes', () => {
    const limit = process.platform === 'linux' ? 107 : 103;
    const fits = dirWithSocketOf(limit);
    expect(adminSocketPath(fits)).toBe(path.join(fits, 'admin.sock'));
    const long = dirWithSocketOf(limit + 1);
    expect(() => adminSocketPath(long)).toThrow(ConfigError);
    expect(() => adminSocketPath(long)).toThrow(`${limit + 1} bytes`);
    // A name of multi-byte characters is longer than it looks.
    const accented = dirWithSocketOf(limit - 10) + 'é'.repeat(10);
    expect(() => adminSocketPath(accented)).toThrow('DATA_DIR is too long for its admin socket');
  });

  it('still starts a server on a longer one (its commands refuse; docs/operations.md)', () => {
    const long = dirWithSocketOf(200);
    expect(loadConfig({ DATA_DIR: long }).dataDir).toBe(long);
    expect(() => loadConfig({ ...ON_SERVER, DATA_DIR: long })).not.toThrow();
  });
});

describe('HEADERS_TIMEOUT_MS', () => {
  it('refuses a headers timeout longer than the request timeout instead of clamping it', () => {
    const message = refusal({ HEADERS_TIMEOUT_MS: '60000' });
    expect(message).toContain('HEADERS_TIMEOUT_MS (60000) must be at most REQUEST_TIMEOUT_MS');
    expect(
      loadConfig({ HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' }).sockets
        .headersTimeoutMs,
    ).toBe(60_000);
    // Unset, it follows a shorter request timeout (it was not written, so not overridden).
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).sockets.headersTimeoutMs).toBe(5000);
    // No request timeout at all: nothing to be longer than.
    expect(
      loadConfig({ HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '0' }).sockets.headersTimeoutMs,
    ).toBe(60_000);
  });
});

describe('limits', () => {
  it.each([
    ['BODY_LIMIT', '17000000'],
    ['RATE_LIMIT_MAX', '99999999999999999999'],
    ['RATE_LIMIT_MAX', '1000001'],
    ['CHECKOUT_RATE_PER_KEY', '1000001'],
    ['CHECKOUT_RATE_PER_ADDRESS', '1000001'],
  ])('gives %s a maximum (refuses %s)', (name, value) => {
    expect(refusal({ [name]: value })).toContain(`${name} must be <=`);
  });

  it('accepts the maximums themselves', () => {
    const config = loadConfig({ BODY_LIMIT: String(16 * 1_048_576), RATE_LIMIT_MAX: '1000000' });
    expect(config.bodyLimit).toBe(16 * 1_048_576);
    expect(config.rateLimit.max).toBe(1_000_000);
  });
});

describe('SMTP_URL', () => {
  it.each([
    'smtp://relay:notaport',
    'smtp://relay:0',
    'smtp://relay:99999',
    'smtp://:25',
    'smtps://user:secret@:465',
  ])('refuses %s without echoing it', (url) => {
    const message = refusal({ SMTP_URL: url });
    expect(message).toContain('SMTP_URL must be smtp://');
    expect(message).not.toContain(url);
    expect(message).not.toContain('secret');
  });

  it.each(['smtp://127.0.0.1:2525', 'smtps://user:pass@smtp.example.com:465', 'smtp://relay'])(
    'accepts %s',
    (url) => {
      expect(loadConfig({ SMTP_URL: url }).smtpUrl).toBe(url);
    },
  );
});
