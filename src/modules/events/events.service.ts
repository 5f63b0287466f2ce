/** Events: listing for now (creation and booking arrive with the booking rules). */
import type { Db } from '../../db/database.js';
import { runList } from '../../query/run.js';
import { accessFor } from '../access/access.js';
import { listScopes } from '../access/list-scopes.js';
import type { Caller } from '../users/caller.js';
import { toEventView } from './events.mapper.js';
import { eventSpec } from './events.query.js';
import { eventsRepository } from './events.repository.js';

export function eventsService({ db }: { db: Db }) {
  const repo = eventsRepository(db);
  return {
    list: async (caller: Caller, query: Record<string, unknown>) =>
      runList(
        eventSpec,
        { path: '/api/events', query, scope: await listScopes.events(accessFor(db, caller)) },
        repo.listSource(),
        (rows) => rows.map(toEventView),
      ),
  };
}

export type EventsService = ReturnType<typeof eventsService>;
