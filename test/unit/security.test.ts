import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiKeyDigest,
  apiKeyDigestText,
  digestBytes,
  createApiKeyCipher,
  digestsEqual,
  generateApiKey,
} from '../../src/security/api-keys.js';
import { hashPassword, verifyPassword } from '../../src/security/passwords.js';
import { loadSecret } from '../../src/security/secret.js';

describe('API key encryption', () => {
  const cipher = createApiKeyCipher('x'.repeat(40));

  it('round-trips and never stores the key in clear', () => {
    const key = generateApiKey();
    const sealed = cipher.encrypt(key, 'user-1');
    expect(sealed.toString('latin1')).not.toContain(key);
    expect(cipher.decrypt(sealed, 'user-1')).toBe(key);
  });

  it('uses a fresh IV each time', () => {
    const key = generateApiKey();
    expect(cipher.encrypt(key, 'u').equals(cipher.encrypt(key, 'u'))).toBe(false);
  });

  it('refuses a ciphertext moved to another user, tampered with, or under another secret', () => {
    const sealed = cipher.encrypt(generateApiKey(), 'user-1');
    expect(() => cipher.decrypt(sealed, 'user-2')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => cipher.decrypt(tampered, 'user-1')).toThrow();
    expect(() => createApiKeyCipher('y'.repeat(40)).decrypt(sealed, 'user-1')).toThrow();
  });

  it('makes distinct high-entropy keys and stable digests', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    const key = generateApiKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digestsEqual(apiKeyDigest(key), apiKeyDigest(key))).toBe(true);
    expect(digestsEqual(apiKeyDigest(key), apiKeyDigest(key + 'x'))).toBe(false);
    expect(digestsEqual(apiKeyDigest(key), Buffer.alloc(3))).toBe(false);
  });

  it('gives the caches the same digest as text, and its bytes back', () => {
    const key = generateApiKey();
    expect(apiKeyDigestText(key)).toBe(apiKeyDigest(key).toString('base64'));
    expect(digestBytes(apiKeyDigestText(key)).equals(apiKeyDigest(key))).toBe(true);
    expect(apiKeyDigestText(key + 'x')).not.toBe(apiKeyDigestText(key));
  });
});

describe('passwords', () => {
  it('hashes with scrypt and a per-user salt, and verifies', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('x', 'not a hash')).toBe(false);
  });
});

describe('server secret', () => {
  it('prefers BOOKING_SECRET, else creates one file once and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-'));
    expect(loadSecret({ secret: 'from-env', dataDir: dir })).toBe('from-env');
    expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
    const first = loadSecret({ secret: undefined, dataDir: dir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecret({ secret: undefined, dataDir: dir })).toBe(first);
    fs.rmSync(dir, { recursive: true });
  });

  it('generates none for a shared database: there BOOKING_SECRET is required', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-'));
    const shared = { dataDir: dir, databaseUrl: 'postgres://u@db/b' };
    expect(() => loadSecret({ ...shared, secret: undefined })).toThrow(
      /BOOKING_SECRET must be set/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(loadSecret({ ...shared, secret: 'from-env' })).toBe('from-env');
    fs.rmSync(dir, { recursive: true });
  });
});

describe('random letters and digits', () => {
  it('are letters and digits only, of the asked length, with every character in use', async () => {
    const { randomAlphanumeric, charactersFor } = await import('../../src/security/random-text.js');
    expect(charactersFor(256)).toBe(43);
    const text = Array.from({ length: 200 }, () => randomAlphanumeric(43)).join('');
    expect(text).toMatch(/^[A-Za-z0-9]+$/);
    expect(text).toHaveLength(200 * 43);
    // 8,600 draws over 62 characters: each appears (a biased or truncated alphabet would not).
    expect(new Set(text).size).toBe(62);
    expect(generateApiKey()).toMatch(/^[A-Za-z0-9]{43}$/);
  });
});
