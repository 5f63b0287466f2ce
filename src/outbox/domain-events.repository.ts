/** All SQL on domain events. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { insertRows } from '../db/write-batch.js';
import type { Audit, EventName } from './domain-events.js';

/** A domain event as stored: a `StoredEvent` without its hints (they never leave the process). */
export interface EventRecord {
  id: string;
  name: EventName;
  sellerId: string | null;
  actorId: string | null;
  object: { object: string; id: string };
  audit?: Audit | undefined;
}

export function domainEventsRepository(db: Kysely<DB>) {
  return {
    /** Sent with the rest of an open write batch (db/write-batch.ts). */
    async insert(event: EventRecord): Promise<void> {
      await insertRows(db, 'domain_events', [
        {
          id: event.id,
          name: event.name,
          seller_id: event.sellerId,
          actor_id: event.actorId,
          object: JSON.stringify(event.object),
          audit: event.audit ? JSON.stringify(event.audit) : null,
        },
      ]);
    },
  };
}
