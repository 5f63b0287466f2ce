/**
 * Publishable keys: a seller (or its seller-admins) makes keys for the checkout button on
 * its own web pages, lists them, and revokes them. A key is public by design; what a
 * request made with one may do is checkout.guard.ts's business.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { randomAlphanumeric } from '../../security/random-text.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { usersFacade as users } from '../users/index.js';
import { publishableKeyList } from './publishable-keys.list.js';
import { publishableKeysRepository } from './publishable-keys.repository.js';
import { toPublishableKeyView, type PublishableKeyView } from './publishable-keys.schemas.js';

/**
 * `pk_` and 32 letters and digits (190 random bits): unguessable, so a page's key cannot be
 * derived from another's. Keys made before were base64url; they keep working.
 */
export const newPublishableKey = (): string => `pk_${randomAlphanumeric(32)}`;

export function publishableKeysService({ db }: { db: Db }) {
  const repo = publishableKeysRepository(db);
  return {
    async create(
      caller: Caller,
      sellerId: string,
      input: { label?: string },
      record?: Recorder,
    ): Promise<PublishableKeyView> {
      accessOf(caller).require('keys', sellerId, `the publishable keys of seller ${sellerId}`);
      if (!(await users.isSeller(db, sellerId))) throw invalid('path', 'id', 'is not a seller');
      return recordedCreate(db, record, async (tx) =>
        toPublishableKeyView(
          await publishableKeysRepository(tx).insert({
            id: newId(),
            seller_id: sellerId,
            key: newPublishableKey(),
            label: input.label?.trim() ?? '',
            // A delegate's keys are revoked when its delegation ends (delegates module).
            created_by: caller.id,
          }),
        ),
      );
    },

    /** A list the caller may not see is empty, never an error (the rule for lists). */
    list(caller: Caller, sellerId: string, query: Record<string, unknown>) {
      const allowed = accessOf(caller).can('keys', sellerId);
      return runList(
        publishableKeyList,
        {
          path: `/api/sellers/${sellerId}/publishable-keys`,
          query,
          scope: { anyOf: allowed ? [{ field: 'seller', in: [sellerId] }] : [] },
        },
        repo.listSource(),
        (rows) => rows.map(toPublishableKeyView),
      );
    },

    /** Revokes a key: every request with it is refused from now on, on every instance. */
    async revoke(caller: Caller, sellerId: string, id: string): Promise<void> {
      accessOf(caller).require('keys', sellerId, `the publishable keys of seller ${sellerId}`);
      if (!(await repo.revoke(sellerId, id, new Date()))) throw notFound(`Publishable key ${id}`);
    },
  };
}

export type PublishableKeysService = ReturnType<typeof publishableKeysService>;
