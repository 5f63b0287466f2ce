/**
 * All SQL on hooks and on reading their delivery log (the API side of webhooks). The API
 * manages a user's own hooks; those of its resellers (`reseller_id`) are
 * reseller-hooks.repository.ts's.
 */
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type {
  DB,
  HooksTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
} from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { Resealed } from '../../security/secret-rotation.js';

export type HookRow = Selectable<HooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export function hooksRepository(db: Kysely<DB>) {
  return {
    /** Signing secret ciphertexts after `afterId`, in id order (secret rotation). */
    async sealedSecrets(afterId: string, limit: number): Promise<{ id: string; sealed: Buffer }[]> {
      const rows = await db
        .selectFrom('hooks')
        .select(['id', 'secret_ciphertext'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, sealed: r.secret_ciphertext }));
    },

    /** Only where the secret is still the one read (`sealed.was`); false when it was replaced. */
    async setSealedSecret(id: string, sealed: Resealed): Promise<boolean> {
      const result = await db
        .updateTable('hooks')
        .set({ secret_ciphertext: sealed })
        .where('id', '=', id)
        .where('secret_ciphertext', '=', sealed.was)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The new hook, or undefined when the owner has one for this event and URL. */
    async insert(
      hook: Insertable<HooksTable> & { created_by: string },
    ): Promise<HookRow | undefined> {
      return db
        .insertInto('hooks')
        .values({ ...creationStamps(), ...hook })
        .onConflict((oc) => oc.constraint('hooks_owner_event_url').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /** Serializes hook creation per owner until the transaction ends (for the cap). */
    async lockOwner(ownerId: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext(${`hooks:${ownerId}`}))`.execute(db);
    },

    async countOf(ownerId: string): Promise<number> {
      const row = await db
        .selectFrom('hooks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('owner_id', '=', ownerId)
        .where('reseller_id', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async find(ownerId: string, id: string): Promise<HookRow | undefined> {
      return db
        .selectFrom('hooks')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('reseller_id', 'is', null)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<HookRow | undefined> {
      return db.selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async remove(ownerId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('hooks')
        .where('owner_id', '=', ownerId)
        .where('reseller_id', 'is', null)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async setSecret(id: string, secretCiphertext: Buffer): Promise<void> {
      await db
        .updateTable('hooks')
        .set({ secret_ciphertext: secretCiphertext, updated_at: touchedAt('hooks') })
        .where('id', '=', id)
        .execute();
    },

    async setStatus(id: string, status: 'enabled' | 'disabled'): Promise<HookRow | undefined> {
      return db
        .updateTable('hooks')
        .set({
          status,
          disabled_at: status === 'disabled' ? sql<Date>`now()` : null,
          updated_at: touchedAt('hooks'),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Disables a hook whose deliveries kept failing, if it is still enabled: the row, or
     * undefined when it was disabled (or deleted) already. Several deliveries to one hook
     * give up together; only the one that disabled it tells the owner, once.
     */
    async disableFailing(id: string): Promise<HookRow | undefined> {
      return db
        .updateTable('hooks')
        .set({ status: 'disabled', disabled_at: sql<Date>`now()`, updated_at: touchedAt('hooks') })
        .where('id', '=', id)
        .where('status', '=', 'enabled')
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Disables the owner's enabled hooks that `userId` made (not its resellers'); their ids.
     * Like a hook given up after failures: nothing is fanned out to it or sent from it.
     */
    async disableMadeBy(ownerId: string, userId: string): Promise<string[]> {
      const rows = await db
        .updateTable('hooks')
        .set({ status: 'disabled', disabled_at: sql<Date>`now()`, updated_at: touchedAt('hooks') })
        .where('owner_id', '=', ownerId)
        .where('reseller_id', 'is', null)
        .where('created_by', '=', userId)
        .where('status', '=', 'enabled')
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    listSource(): ListSource<HookRow> {
      return listSource(
        // A seller's own hooks: its resellers' (octo/webhooks) are theirs to manage.
        () => db.selectFrom('hooks as h').where('h.reseller_id', 'is', null),
        (q) => q.selectAll('h'),
      );
    },

    deliveriesSource(): ListSource<DeliveryRow> {
      return listSource(
        () => db.selectFrom('webhook_deliveries as w'),
        (q) => q.selectAll('w'),
      );
    },

    /** Each delivery's attempts, oldest first. */
    async attemptsOf(deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
      const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
      if (deliveryIds.length === 0) return byDelivery;
      const rows = await db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', 'in', deliveryIds)
        .orderBy('delivery_id')
        .orderBy('attempt')
        .execute();
      for (const row of rows) byDelivery.get(row.delivery_id)!.push(row);
      return byDelivery;
    },

    /**
     * Due again now with a fresh retry schedule, whatever its state (a resend on request);
     * undefined if not the hook's. A delivery in flight (claimed, its lease running) keeps
     * its lease: clearing it sent the delivery again at the next poll, in parallel with the
     * attempt on the wire, whose outcome was then fenced out (review-hooks finding 6). The
     * fresh schedule starting at that attempt (`round_start = attempts`) is the mark that a
     * resend is owed: recording the attempt leaves the delivery pending and due
     * (deliveries.repository.ts `record`), so it is sent once more, right after.
     */
    async resend(hookId: string, id: string): Promise<DeliveryRow | undefined> {
      return db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: 'pending',
          round_start: eb.ref('attempts'),
          next_attempt_at: sql<Date>`now()`,
          locked_until: sql<Date | null>`case when locked_until > now() then locked_until end`,
          updated_at: sql<Date>`now()`,
        }))
        .where('hook_id', '=', hookId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type HooksRepository = ReturnType<typeof hooksRepository>;
