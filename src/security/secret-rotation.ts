/**
 * Moving every sealed value (API keys, webhook signing secrets) from BOOKING_SECRET_PREVIOUS
 * to BOOKING_SECRET, a page at a time, each value only if it is not under the current secret
 * already: `cli rotate-secret` (docs/operations.md). Safe to run again, and while instances
 * serve: they open values under either secret during the rotation, and a value they replace
 * meanwhile (a rotated API key, a new signing secret) is left as they wrote it (Resealed).
 */
import type { ApiKeyCipher } from './api-keys.js';

/**
 * A value resealed under the current secret, carrying the value it replaces (`was`): a store
 * writes it back only where the row still holds `was` (compare-and-swap). Between the page
 * read and the write an instance may have replaced the value (`POST /api/users/{id}/apiKey`,
 * a password change, a hook's new secret); what it wrote is under the current secret
 * already, and writing the old value resealed over it would bring back a revoked key. It is
 * the Buffer itself, so a store whose rows are never replaced may write it as one.
 */
export type Resealed = Buffer & { readonly was: Buffer };

/** A table's sealed values, read in id order and written back one by one. */
export interface SealedStore {
  readonly name: string;
  page(afterId: string, limit: number): Promise<{ id: string; sealed: Buffer }[]>;
  /** The associated data the value is bound to (the user id, `hook:<id>`). */
  boundTo(id: string): string;
  /** False when the row no longer holds `sealed.was` and was left alone. */
  write(id: string, sealed: Resealed): Promise<boolean | void>;
}

const PAGE = 500;

export async function resealAll(
  store: SealedStore,
  cipher: ApiKeyCipher,
): Promise<{ checked: number; resealed: number }> {
  let after = '';
  let checked = 0;
  let resealed = 0;
  for (;;) {
    const rows = await store.page(after, PAGE);
    for (const row of rows) {
      const next = cipher.reseal(row.sealed, store.boundTo(row.id));
      if (!next) continue;
      const written = await store.write(row.id, Object.assign(next, { was: row.sealed }));
      if (written !== false) resealed++;
    }
    checked += rows.length;
    if (rows.length < PAGE) return { checked, resealed };
    after = rows.at(-1)!.id;
  }
}
