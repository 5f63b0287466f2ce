import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from '../../src/config.js';

/** What every process on a PostgreSQL server must be given (the secret it shares). */
const ON_SERVER = { BOOKING_SECRET: 's'.repeat(40) };

describe('loadConfig', () => {
  it('has working defaults: port 3000, embedded database in ./data, production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      migrateOnStart: true,
      env: 'production',
      bodyLimit: 1_048_576,
      logLevel: 'info',
      // The embedded database shares this process's clock: no skew to allow.
      pollHorizonMarginMs: 0,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(
      loadConfig({ ...ON_SERVER, DATABASE_URL: 'postgres://u@db/b' }).pollHorizonMarginMs,
    ).toBe(1000);
  });

  it('converts and validates every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/booking',
      BOOKING_ENV: 'sandbox',
      RATE_LIMIT_MAX: '0',
      MIGRATE_ON_START: 'true',
      BOOKING_SECRET: 's'.repeat(32),
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db:5432/booking',
      env: 'sandbox',
      rateLimit: { max: 0, windowMs: 60_000 },
      migrateOnStart: true,
    });
  });

  it('trusts no proxy unless told, and the addresses and ranges it is told', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  it('does not migrate on start against a server unless asked', () => {
    expect(loadConfig({ ...ON_SERVER, DATABASE_URL: 'postgresql://x/y' }).migrateOnStart).toBe(
      false,
    );
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT must be integer \(got "eighty"\)/],
    [{ PORT: '70000' }, /PORT must be <= 65535/],
    [{ BOOKING_ENV: 'staging' }, /BOOKING_ENV .*one of production, sandbox/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ BOOKING_SECRET: 'short' }, /BOOKING_SECRET/],
    [{ MIGRATE_ON_START: 'perhaps' }, /MIGRATE_ON_START must be boolean/],
    [{ POLL_HORIZON_MARGIN_MS: '-1' }, /POLL_HORIZON_MARGIN_MS must be >= 0/],
    [{ POLL_HORIZON_MARGIN_MS: '60001' }, /POLL_HORIZON_MARGIN_MS must be <= 60000/],
    [{ TRUST_PROXY: 'balancer.local' }, /TRUST_PROXY must list IP addresses.*balancer\.local/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY .*10\.0\.0\.0\/33/],
    [{ TRUST_PROXY: '127.0.0.1, ::1/129' }, /TRUST_PROXY .*::1\/129/],
  ];
  it.each(bad)('names the bad variable: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes secrets or URLs in its messages', () => {
    try {
      loadConfig({ BOOKING_SECRET: 'tiny-secret', DATABASE_URL: 'mysql://user:pw@host/db' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('tiny-secret');
      expect(String(error)).not.toContain('pw@host');
    }
  });
  it('refuses a variable a release removed, saying what replaced it, and ignores it empty', () => {
    expect(() => loadConfig({ OUTBOX_MAX_ATTEMPTS: '10' })).toThrow(
      /OUTBOX_MAX_ATTEMPTS was removed on 2026-12-07: .*OUTBOX_GIVE_UP_AFTER_MS/,
    );
    expect(loadConfig({ OUTBOX_MAX_ATTEMPTS: '' }).port).toBe(3000);
  });

  it('refuses a PostgreSQL server without BOOKING_SECRET: each process would make its own', () => {
    const url = { DATABASE_URL: 'postgres://u@db/b' };
    for (const env of [url, { ...url, BOOKING_ENV: 'sandbox' }, { ...url, BOOKING_SECRET: ' ' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/BOOKING_SECRET must be set with DATABASE_URL/);
    }
    expect(loadConfig({ ...url, ...ON_SERVER }).secret).toBe(ON_SERVER.BOOKING_SECRET);
    // Embedded: one process, whose generated DATA_DIR/secret.key is the secret.
    expect(loadConfig({}).secret).toBeUndefined();
  });

  it("refuses the example file's placeholder secret, and never echoes it", () => {
    for (const secret of [
      'change-me-to-a-long-random-secret-of-32-chars-or-more',
      'CHANGE-ME-0123456789-0123456789-0123456789',
    ]) {
      for (const env of [
        { BOOKING_SECRET: secret },
        { ...{ DATABASE_URL: 'postgres://u@db/b' }, BOOKING_SECRET: secret },
      ]) {
        let message = '';
        try {
          loadConfig(env);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          message = String(error);
        }
        expect(message).toMatch(/BOOKING_SECRET .*placeholder/);
        expect(message).not.toContain(secret);
      }
    }
    // The secret being rotated away from may be the placeholder: it must still be readable.
    const previous = 'change-me-to-a-long-random-secret-of-32-chars-or-more';
    expect(loadConfig({ ...ON_SERVER, BOOKING_SECRET_PREVIOUS: previous }).previousSecret).toBe(
      previous,
    );
  });

  it('ships an example environment that does not start until its secret is set', () => {
    const example = Object.fromEntries(
      fs
        .readFileSync('deploy/booking.env.example', 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(example).toHaveProperty('DATABASE_URL');
    expect(() => loadConfig(example)).toThrow(/BOOKING_SECRET/);
    expect(loadConfig({ ...example, ...ON_SERVER }).env).toBe('production');
  });

  const notIntegers = ['0.5', '0.9', '1.0', '1e3', '0x10', 'false', 'true', '+5', '5 5', '١'];
  it.each(['RATE_LIMIT_MAX', 'AUTH_FAILURES_PER_ADDRESS', 'REQUEST_TIMEOUT_MS', 'PORT'])(
    'refuses an integer variable %s written other than in digits',
    (name) => {
      for (const value of notIntegers) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
          new RegExp(`${name} must be integer`),
        );
      }
      expect(() => loadConfig({ [name]: '10' })).not.toThrow();
    },
  );

  it('bounds every duration within what a timer can wait (2^31-1 ms)', () => {
    const durations = configVariables.filter((name) => name.endsWith('_MS'));
    expect(durations).toContain('OUTBOX_POLL_MS');
    expect(durations).toContain('RATE_LIMIT_WINDOW_MS');
    for (const name of durations) {
      expect(() => loadConfig({ [name]: String(2 ** 31) }), name).toThrow(
        new RegExp(`${name} must be <= \\d+`),
      );
    }
    expect(() => loadConfig({ OUTBOX_POLL_MS: '3000000000' })).toThrow(/OUTBOX_POLL_MS/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '5000,3000000000' })).toThrow(
      /WEBHOOK_RETRY_SCHEDULE_MS/,
    );
    expect(loadConfig({ OUTBOX_POLL_MS: '3600000' }).outbox.pollMs).toBe(3_600_000);
  });

  it('never echoes a token in its messages', () => {
    for (const token of ['short-token', '0.5']) {
      try {
        loadConfig({ METRICS_TOKEN: token });
        expect.unreachable();
      } catch (error) {
        expect(String(error)).toContain('METRICS_TOKEN');
        expect(String(error)).not.toContain(token);
      }
    }
  });

  it('serves /demo by default only on the embedded database, in a sandbox or on loopback', () => {
    // `npm start` on a newcomer's machine: embedded, listening on 127.0.0.1.
    expect(loadConfig({}).demoPage).toBe(true);
    expect(loadConfig({ HOST: 'localhost' }).demoPage).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0' }).demoPage).toBe(false);
    expect(loadConfig({ HOST: '::' }).demoPage).toBe(false);
    expect(loadConfig({ BOOKING_ENV: 'production', HOST: '192.0.2.10' }).demoPage).toBe(false);
    expect(loadConfig({ BOOKING_ENV: 'sandbox', HOST: '0.0.0.0' }).demoPage).toBe(true);
    const server = { ...ON_SERVER, DATABASE_URL: 'postgres://u@db/b', BOOKING_ENV: 'sandbox' };
    expect(loadConfig(server).demoPage).toBe(false);
    // Asked for, it is served anyway.
    expect(loadConfig({ DEMO_PAGE: 'true' }).demoPage).toBe(true);
    expect(loadConfig({ ...server, DEMO_PAGE: 'true' }).demoPage).toBe(true);
    expect(loadConfig({ BOOKING_ENV: 'sandbox', DEMO_PAGE: 'false' }).demoPage).toBe(false);
  });
});
