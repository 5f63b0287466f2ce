import { describe, expect, it } from 'vitest';
import { createApiKeyCipher } from '../../src/security/api-keys.js';

const OLD = 'old-secret-that-is-long-enough-0123456789';
const NEW = 'new-secret-that-is-long-enough-0123456789';

describe('the API key cipher during a secret rotation', () => {
  it('opens what the previous secret sealed, and reseals it under the current one', () => {
    const sealed = createApiKeyCipher(OLD).encrypt('the key', 'user-1');
    const rotating = createApiKeyCipher(NEW, OLD);
    expect(rotating.decrypt(sealed, 'user-1')).toBe('the key');
    const resealed = rotating.reseal(sealed, 'user-1')!;
    expect(resealed).toBeInstanceOf(Buffer);
    expect(createApiKeyCipher(NEW).decrypt(resealed, 'user-1')).toBe('the key');
    expect(rotating.reseal(resealed, 'user-1')).toBeUndefined();
  });

  it('opens nothing under a secret it was not given, nor bound to another id', () => {
    const sealed = createApiKeyCipher(OLD).encrypt('the key', 'user-1');
    expect(() => createApiKeyCipher(NEW).decrypt(sealed, 'user-1')).toThrow();
    expect(() => createApiKeyCipher(NEW, OLD).decrypt(sealed, 'user-2')).toThrow();
    expect(() => createApiKeyCipher(NEW, OLD).reseal(sealed, 'user-2')).toThrow();
  });
});
