/**
 * What every use case of experiences runs with (the database and where its domain events go),
 * and what they share: who may see or manage an experience, the checks of a whole
 * experience, its locked change with its `experience.update`, and schedules and guest types
 * as stored. The use-case files (experience-reads, experience-writes, experience-schedules,
 * experience-guides) are top-level functions taking this context first;
 * experiences.service.ts binds them to one.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalidFields, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import type { Scope } from '../../query/types.js';
import {
  normalizeSchedule,
  type Schedule as StoredSchedule,
  type ScheduleInput,
} from '../schedules/index.js';
import {
  toExperienceView,
  type ExperienceRow,
  type ExperienceView,
  type StoredDemographic,
} from './experiences.schemas.js';
import { experiencesRepository } from './experiences.repository.js';
import { experienceErrors } from './experiences.rules.js';

export interface ExperiencesServiceDeps {
  db: Db;
  /** Where `experience.*` events go, in the change's transaction. */
  domainEvents?: EventSink;
  /**
   * Whether a departure of the experience that has not started holds seats (the events
   * module's; app-modules.ts passes it in, as events depend on experiences).
   */
  seatsAhead?: (tx: Tx, experienceId: string) => Promise<boolean>;
}

export type ExperiencesContext = Required<ExperiencesServiceDeps>;

export const experiencesContext = (deps: ExperiencesServiceDeps): ExperiencesContext => ({
  domainEvents: noEvents,
  seatsAhead: async () => false,
  ...deps,
});

export interface ExperienceInput {
  seller?: { id: string };
  name?: string;
  desc?: string;
  price?: number;
  priceType?: 'person' | 'outing';
  currency?: string;
  duration?: number;
  timezone?: string;
  group?: { orderMin?: number | null; orderMax?: number | null; outingMax?: number | null };
  schedules?: ScheduleInput[];
  demographics?: DemographicInput[];
  resources?: { resource: { id: string }; seatsPerGuest?: number }[];
  visible?: boolean;
}

export interface DemographicInput {
  id?: string;
  label?: string;
  name?: string;
  code: string;
  price?: number | null;
}

/** Schedules as stored: every one with an id (kept when given), bounds as dates. */
export const withIds = (schedules: ScheduleInput[]): StoredSchedule[] =>
  schedules.map((s) => ({ ...normalizeSchedule(s), id: s.id ?? newId() }));

/** Guest types as stored: every one with an id (kept when given: orders name it). */
export const storedDemographics = (demographics: DemographicInput[]): StoredDemographic[] =>
  demographics.map((d) => ({
    id: d.id ?? newId(),
    label: (d.label ?? d.name)!,
    code: d.code,
    price: d.price ?? null,
  }));

/**
 * What a caller sees in the list: visible experiences, and the hidden ones of the sellers
 * whose staff it is (they book and staff them).
 */
export function experiencesScope(caller: Caller | null): Scope {
  const sellers = caller ? accessOf(caller).sellersFor('events') : [];
  if (sellers === 'all') return 'all';
  return {
    anyOf: [
      { field: 'visible', in: [true] },
      { field: 'seller', in: sellers },
    ].filter((a) => a.in.length > 0),
  };
}

/** An experience the caller may see: visible, or one whose seller it works for; else 404. */
export function mayView(
  caller: Caller | null,
  row: ExperienceRow | undefined,
  id: string,
): ExperienceRow {
  if (!row || !canView(caller, row)) throw notFound(`Experience ${id}`);
  return row;
}

/** Visible, or the caller works for its seller (they book and staff hidden ones). */
export const canView = (
  caller: Caller | null,
  row: Pick<ExperienceRow, 'visible' | 'seller_id'>,
): boolean => row.visible || (caller !== null && accessOf(caller).can('events', row.seller_id));

/** The experience if the caller may see it; else 404. */
export const visible = async (
  ctx: ExperiencesContext,
  caller: Caller | null,
  id: string,
): Promise<ExperienceRow> => mayView(caller, await experiencesRepository(ctx.db).findById(id), id);

/** The experience if the caller manages the seller's experiences; 404 or 403 else. */
export async function managed(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
): Promise<ExperienceRow> {
  const row = await visible(ctx, caller, id);
  accessOf(caller).require('experiences', row.seller_id, `experience ${id}`);
  return row;
}

/** An experience with what it would be after a change, checked whole; 422 naming each error. */
export function check(
  row: Pick<ExperienceRow, 'price' | 'currency' | 'timezone' | 'order_min' | 'order_max'>,
  schedules: ScheduleInput[],
  demographics: DemographicInput[],
  schedulesBefore: ScheduleInput[] = [],
): void {
  const errors = experienceErrors({
    price: row.price,
    currency: row.currency,
    timezone: row.timezone,
    orderMin: row.order_min,
    orderMax: row.order_max,
    schedules,
    schedulesBefore,
    demographics,
  });
  if (errors.length > 0) throw invalidFields(errors);
}

/** `experience.*` in the change's transaction; an update carries what changed. */
export const emit = (
  ctx: ExperiencesContext,
  tx: Tx,
  caller: Caller,
  name: 'experience.create' | 'experience.update' | 'experience.delete',
  after: ExperienceView,
  before?: ExperienceView,
) =>
  emitChange(ctx.domainEvents, tx, {
    name,
    sellerId: after.seller.id,
    actorId: caller.id,
    after,
    before,
  });

/**
 * Changes an existing experience in one transaction: its row locked, so concurrent
 * changes (a schedule added while the experience is edited) apply one after the other
 * and none is lost; then emitted with what changed. `write` gets the locked row.
 */
export const changeLocked = <T>(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  write: (tx: Tx, current: ExperienceRow) => Promise<{ row?: ExperienceRow; result: T }>,
): Promise<T> =>
  inTransaction(ctx.db, async (tx) => {
    const current = await experiencesRepository(tx).lock(id);
    if (!current) throw notFound(`Experience ${id}`);
    const { row, result } = await write(tx, current);
    if (row) {
      await emit(
        ctx,
        tx,
        caller,
        'experience.update',
        toExperienceView(row),
        toExperienceView(current),
      );
    }
    return result;
  });
