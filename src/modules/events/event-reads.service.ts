/**
 * Reading events: a list page (mapped in Node, or as the JSON text PostgreSQL built), the
 * events an order expands, one event. Each shows only what the caller may see
 * (event-visibility.ts).
 */
import type { Db } from '../../db/database.js';
import { notFound } from '../../domain/errors.js';
import type { Caller } from '../../domain/caller.js';
import { jsonPage } from '../../http/json-text.js';
import { runList, type ListSource } from '../../query/run.js';
import { eventVisibility } from './event-visibility.js';
import { eventList } from './events.list.js';
import { eventsRepository } from './events.repository.js';
import { type EventView, toEventView } from './events.schemas.js';
import { fillLocalTimes } from './new-event.js';

export function eventReads(db: Db) {
  const repo = eventsRepository(db);
  const visibility = eventVisibility();

  /** A page of `source`'s rows the caller may see, `toViews` made of them. */
  const page = async <Row extends { id: string }, View>(
    caller: Caller,
    query: Record<string, unknown>,
    source: ListSource<Row>,
    toViews: (rows: Row[]) => View[],
  ) =>
    runList(
      eventList,
      { path: '/api/events', query, scope: await visibility.scope(db, caller) },
      source,
      toViews,
    );

  return {
    list: (caller: Caller, query: Record<string, unknown>) =>
      page(caller, query, repo.listSource(), (rows) => rows.map(toEventView)),

    /**
     * The same page as `list`, as the bytes of the latest version's JSON that PostgreSQL
     * built (event-json.ts); undefined when an event on it has no stored local times of its
     * experience's zone: those are written now (new-event.ts), and this page is `list`'s.
     * A failure to write them is not the reader's: readers filling one page at once may wait
     * on each other's row locks, or one be chosen as a deadlock's victim; it is handed to
     * `fillFailed` (the route logs it) and the next read fills.
     */
    async listJson(
      caller: Caller,
      query: Record<string, unknown>,
      fillFailed: (error: unknown) => void,
    ): Promise<Buffer | undefined> {
      const texts = await page(caller, query, repo.jsonListSource(), (rows) => rows);
      const stale = texts.data.filter((row) => row.json === '').map((row) => row.id);
      if (stale.length > 0) {
        await fillLocalTimes(db, stale).catch(fillFailed);
        return undefined;
      }
      return jsonPage({ ...texts, data: texts.data.map((row) => row.json) });
    },

    /** The events of these ids the caller may see, as views (`expand=event`). */
    async views(caller: Caller | null, ids: readonly string[]): Promise<Map<string, EventView>> {
      if (!caller) return new Map();
      const rows = await visibility.visible(db, caller, await repo.findMany(ids));
      return new Map(rows.map((row) => [row.id, toEventView(row)]));
    },

    async get(caller: Caller, id: string): Promise<EventView> {
      const row = await repo.findById(id);
      if (!row || !(await visibility.maySee(db, caller, row))) throw notFound(`Event ${id}`);
      return toEventView(row);
    },
  };
}
