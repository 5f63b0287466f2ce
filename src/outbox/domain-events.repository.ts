/** All SQL on domain events. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { StoredEvent } from './domain-events.js';

export function domainEventsRepository(db: Kysely<DB>) {
  return {
    async insert(event: StoredEvent): Promise<void> {
      await db
        .insertInto('domain_events')
        .values({
          id: event.id,
          name: event.name,
          seller_id: event.sellerId,
          actor_id: event.actorId,
          object: JSON.stringify(event.object),
          audit: event.audit ? JSON.stringify(event.audit) : null,
        })
        .execute();
    },
  };
}
