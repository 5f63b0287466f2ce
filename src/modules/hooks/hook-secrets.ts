/**
 * Hook signing secrets: Standard Webhooks' `whsec_` + base64 of 24 random bytes, stored
 * encrypted like API keys (bound to the hook's id), shown to its owner on creation, on
 * request and on rotation, and never logged.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyCipher } from '../../security/api-keys.js';

export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** What a hook's secret is bound to (AES-GCM associated data). */
export const boundTo = (hookId: string) => `hook:${hookId}`;

export const sealSecret = (cipher: ApiKeyCipher, hookId: string, secret: string): Buffer =>
  cipher.encrypt(secret, boundTo(hookId));

export const openSecret = (
  cipher: ApiKeyCipher,
  hook: { id: string; secret_ciphertext: Buffer },
): string => cipher.decrypt(hook.secret_ciphertext, boundTo(hook.id));
