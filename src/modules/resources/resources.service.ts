/**
 * Resources (`/api/resources`, docs/resources.md): a seller's boats and vans, made, listed in
 * the query language, read, changed and deleted by the seller and its curators and
 * seller-admins; read also by the staff who see its events. A capacity is not lowered below
 * what departures to come hold at some moment (409 capacity_below_reserved), and a resource
 * that experiences use is not deleted (409 resource_in_use).
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import { accessOf, type Access } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { usersFacade } from '../users/index.js';
import { peakIn } from './resource-seats.js';
import { resourceSeatsRepository } from './resource-seats.repository.js';
import { resourceList } from './resources.list.js';
import { resourcesRepository } from './resources.repository.js';
import {
  toResourceView,
  type CreateResourceInput,
  type ResourceRow,
  type ResourceView,
  type UpdateResourceInput,
} from './resources.schemas.js';

export interface ResourcesDeps {
  db: Db;
  /** Whether an experience lists the resource (the experiences module's answer). */
  usedByExperiences: (db: Executor, resourceId: string) => Promise<boolean>;
  now?: () => Date;
}

/** Who sees a seller's resources: those who manage its experiences or see its events. */
const sees = (access: Access, sellerId: string) =>
  access.can('experiences', sellerId) || access.can('events', sellerId);

function scope(access: Access): Scope {
  const a = access.sellersFor('experiences');
  const b = access.sellersFor('events');
  if (a === 'all' || b === 'all') return 'all';
  return { anyOf: [{ field: 'seller', in: [...new Set([...a, ...b])] }] };
}

/** A name as stored: trimmed, and not blank (the column refuses an empty one). */
function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalid('body', 'name', 'must not be blank');
  return trimmed;
}

/** The most seats held at any moment from now on. */
async function heldFromNow(db: Executor, id: string, now: Date): Promise<number> {
  const far = new Date(now.getTime() + 100 * 365 * 86_400_000);
  const [load] = await resourceSeatsRepository(db).loads([id], now, far);
  const held = (load?.held ?? []).map((h) => ({
    eventId: h.event_id,
    start: new Date(h.starts_at),
    end: new Date(h.ends_at),
    seats: h.seats,
  }));
  return peakIn(held, now, far);
}

export function resourcesService(deps: ResourcesDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The resource if the caller may see it (else 404), and may manage it (else 403). */
  async function managed(caller: Caller, id: string, run: Executor = db): Promise<ResourceRow> {
    const access = accessOf(caller);
    const row = await resourcesRepository(run).findById(id);
    if (!row || !sees(access, row.seller_id)) throw notFound(`Resource ${id}`);
    access.require('experiences', row.seller_id, `the resources of seller ${row.seller_id}`);
    return row;
  }

  return {
    async create(
      caller: Caller,
      input: CreateResourceInput,
      record?: Recorder,
    ): Promise<ResourceView> {
      const sellerId = input.seller?.id ?? caller.id;
      accessOf(caller).require('experiences', sellerId, `the resources of seller ${sellerId}`);
      if (!(await usersFacade.isSeller(db, sellerId)))
        throw invalid(
          'body',
          'seller.id',
          input.seller ? 'is not a seller' : 'is required: you are not a seller',
        );
      return recordedCreate(db, record, async (tx) =>
        toResourceView(
          await resourcesRepository(tx).insert({
            id: newId(),
            seller_id: sellerId,
            name: nameOf(input.name),
            capacity: input.capacity,
          }),
        ),
      );
    },

    list(caller: Caller, query: Record<string, unknown>) {
      return runList(
        resourceList,
        { path: '/api/resources', query, scope: scope(accessOf(caller)) },
        resourcesRepository(db).listSource(),
        (rows) => rows.map(toResourceView),
      );
    },

    async get(caller: Caller, id: string): Promise<ResourceView> {
      const row = await resourcesRepository(db).findById(id);
      if (!row || !sees(accessOf(caller), row.seller_id)) throw notFound(`Resource ${id}`);
      return toResourceView(row);
    },

    async update(caller: Caller, id: string, input: UpdateResourceInput): Promise<ResourceView> {
      await managed(caller, id);
      return inTransaction(db, async (tx) => {
        const [current] = await resourcesRepository(tx).lock([id]);
        if (!current) throw notFound(`Resource ${id}`);
        if (input.capacity !== undefined && input.capacity < current.capacity) {
          const held = await heldFromNow(tx, id, now());
          if (input.capacity < held)
            throw new DomainError(
              'capacity_below_reserved',
              `Departures to come hold ${held} seats of ${current.name} at once; the capacity cannot be lower.`,
            );
        }
        return toResourceView(
          await resourcesRepository(tx).update(id, {
            ...(input.name !== undefined ? { name: nameOf(input.name) } : {}),
            ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
          }),
        );
      });
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await managed(caller, id);
      await inTransaction(db, async (tx) => {
        await resourcesRepository(tx).lock([id]);
        if (await deps.usedByExperiences(tx, id))
          throw new DomainError(
            'resource_in_use',
            'Experiences use this resource: take it off their resources first.',
          );
        await resourceSeatsRepository(tx).forget(id);
        await resourcesRepository(tx).remove(id);
      });
    },
  };
}

export type ResourcesService = ReturnType<typeof resourcesService>;
