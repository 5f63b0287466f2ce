import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/b' }).pollHorizonMarginMs).toBe(1000);
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
    expect(loadConfig({ DATABASE_URL: 'postgresql://x/y' }).migrateOnStart).toBe(false);
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
});
