/**
 * Moving every sealed value (API keys, webhook signing secrets) from BOOKING_SECRET_PREVIOUS
 * to BOOKING_SECRET, a page at a time, each value only if it is not under the current secret
 * already: `cli rotate-secret` (docs/operations.md). Safe to run again, and while instances
 * serve: they open values under either secret during the rotation.
 */
import type { ApiKeyCipher } from './api-keys.js';

/** A table's sealed values, read in id order and written back one by one. */
export interface SealedStore {
  readonly name: string;
  page(afterId: string, limit: number): Promise<{ id: string; sealed: Buffer }[]>;
  /** The associated data the value is bound to (the user id, `hook:<id>`). */
  boundTo(id: string): string;
  write(id: string, sealed: Buffer): Promise<void>;
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
      if (next) {
        await store.write(row.id, next);
        resealed++;
      }
    }
    checked += rows.length;
    if (rows.length < PAGE) return { checked, resealed };
    after = rows.at(-1)!.id;
  }
}
