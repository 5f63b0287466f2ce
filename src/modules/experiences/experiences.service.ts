/**
 * Experiences: what a seller sells. Created and changed by the seller, its curators and
 * seller-admins (or an admin); visible ones, and their availability, are public.
 */
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, invalidFields, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import {
  canonicalZone,
  normalizeSchedule,
  type Schedule as StoredSchedule,
  type ScheduleInput,
} from '../schedules/index.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { usersFacade as users } from '../users/index.js';
import { experienceList } from './experiences.list.js';
import { demographicList } from './demographics.list.js';
import { demographicsRepository } from './demographics.repository.js';
import { toDemographicView } from './demographics.schemas.js';
import {
  type ExperienceRow,
  type ExperienceView,
  schedulesOf,
  demographicsOf,
  type StoredDemographic,
  toExperienceView,
} from './experiences.schemas.js';
import { experiencesRepository } from './experiences.repository.js';
import { experienceErrors } from './experiences.rules.js';

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
  visible?: boolean;
}

export interface DemographicInput {
  id?: string;
  label?: string;
  name?: string;
  code: string;
  price?: number | null;
}

export interface GuidePreferences {
  required?: number;
  autoAssign?: boolean;
  includeInConfirmation?: boolean;
}

/** Schedules as stored: every one with an id (kept when given), bounds as dates. */
const withIds = (schedules: ScheduleInput[]): StoredSchedule[] =>
  schedules.map((s) => ({ ...normalizeSchedule(s), id: s.id ?? newId() }));

/** Guest types as stored: every one with an id (kept when given: orders name it). */
const storedDemographics = (demographics: DemographicInput[]): StoredDemographic[] =>
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

export function experiencesService({
  db,
  domainEvents = noEvents,
}: {
  db: Db;
  domainEvents?: EventSink;
}) {
  const repo = experiencesRepository(db);

  /** `experience.*` in the change's transaction; an update carries what changed. */
  const emit = (
    tx: Tx,
    caller: Caller,
    name: 'experience.create' | 'experience.update' | 'experience.delete',
    after: ExperienceView,
    before?: ExperienceView,
  ) =>
    emitChange(domainEvents, tx, {
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
  const change = <T>(
    caller: Caller,
    id: string,
    write: (tx: Tx, current: ExperienceRow) => Promise<{ row?: ExperienceRow; result: T }>,
  ): Promise<T> =>
    inTransaction(db, async (tx) => {
      const current = await experiencesRepository(tx).lock(id);
      if (!current) throw notFound(`Experience ${id}`);
      const { row, result } = await write(tx, current);
      if (row) {
        await emit(
          tx,
          caller,
          'experience.update',
          toExperienceView(row),
          toExperienceView(current),
        );
      }
      return result;
    });

  /** A change of the schedules alone, checked with the rest of the experience. */
  const changeSchedules = <T>(
    caller: Caller,
    id: string,
    edit: (schedules: StoredSchedule[]) => { schedules: StoredSchedule[]; result: T },
    record?: Recorder,
  ): Promise<T> =>
    change(caller, id, async (tx, current) => {
      const { schedules, result } = edit(schedulesOf(current));
      check(current, schedules, demographicsOf(current));
      const row = await experiencesRepository(tx).update(id, {
        schedules: JSON.stringify(schedules),
      });
      // A create's Idempotency-Key answer, in the same transaction as the schedule.
      if (record) await record(tx, { status: 201, body: result });
      return { row, result };
    });

  /** The schedule with this id, or 404. */
  const scheduleAt = (schedules: StoredSchedule[], id: string, scheduleId: string): number => {
    const index = schedules.findIndex((s) => s.id === scheduleId);
    if (index < 0) throw notFound(`Schedule ${scheduleId} of experience ${id}`);
    return index;
  };

  function check(
    row: Pick<ExperienceRow, 'price' | 'currency' | 'timezone' | 'order_min' | 'order_max'>,
    schedules: ScheduleInput[],
    demographics: DemographicInput[],
  ) {
    const errors = experienceErrors({
      price: row.price,
      currency: row.currency,
      timezone: row.timezone,
      orderMin: row.order_min,
      orderMax: row.order_max,
      schedules,
      demographics,
    });
    if (errors.length > 0) {
      throw invalidFields(errors);
    }
  }

  const visible = async (caller: Caller | null, id: string): Promise<ExperienceRow> =>
    mayView(caller, await repo.findById(id), id);

  /** Guide preferences are set by whoever manages the experience or the seller's guides. */
  async function managedGuides(caller: Caller, id: string): Promise<ExperienceRow> {
    const row = await visible(caller, id);
    const access = accessOf(caller);
    if (!access.can('guides', row.seller_id)) {
      access.require('experiences', row.seller_id, `experience ${id}`);
    }
    return row;
  }

  async function managed(caller: Caller, id: string): Promise<ExperienceRow> {
    const row = await visible(caller, id);
    accessOf(caller).require('experiences', row.seller_id, `experience ${id}`);
    return row;
  }

  return {
    /** Guest types, of the experiences the caller may see (`GET /api/demographics`). */
    demographics: (caller: Caller | null, query: Record<string, unknown>) =>
      runList(
        demographicList,
        { path: '/api/demographics', query, scope: experiencesScope(caller) },
        demographicsRepository(db).listSource(),
        (rows) => rows.map(toDemographicView),
      ),

    list: async (caller: Caller | null, query: Record<string, unknown>) =>
      runList(
        experienceList,
        { path: '/api/experiences', query, scope: experiencesScope(caller) },
        repo.listSource(),
        (rows) => rows.map(toExperienceView),
      ),

    async create(
      caller: Caller,
      input: Required<
        Pick<ExperienceInput, 'name' | 'price' | 'priceType' | 'currency' | 'duration'>
      > &
        ExperienceInput,
      record?: Recorder,
    ): Promise<ExperienceView> {
      if (!input.seller && !caller.roles.includes('ROLE_SELLER')) {
        const sellers = accessOf(caller).sellersFor('experiences');
        if (sellers === 'all' || sellers.length > 0) {
          throw invalid(
            'body',
            'seller.id',
            'is required: you create experiences for a seller you work for',
          );
        }
      }
      const sellerId = input.seller?.id ?? caller.id;
      if (!(await users.isSeller(db, sellerId))) {
        if (sellerId === caller.id) {
          throw new DomainError(
            'forbidden',
            'Only sellers (ROLE_SELLER) and their delegates create experiences.',
          );
        }
        throw invalid('body', 'seller.id', 'is not a seller');
      }
      accessOf(caller).require('experiences', sellerId, `the experiences of seller ${sellerId}`);
      const schedules = withIds(input.schedules ?? []);
      const row = {
        id: newId(),
        seller_id: sellerId,
        name: input.name,
        description: input.desc ?? '',
        price: input.price,
        price_type: input.priceType,
        currency: input.currency,
        duration: input.duration,
        timezone: input.timezone ?? 'UTC',
        order_min: input.group?.orderMin ?? null,
        order_max: input.group?.orderMax ?? null,
        outing_max: input.group?.outingMax ?? null,
        visible: input.visible ?? true,
      };
      check(row, schedules, input.demographics ?? []);
      row.timezone = canonicalZone(row.timezone);
      const demographics = storedDemographics(input.demographics ?? []);
      return recordedCreate(db, record, async (tx) => {
        const view = toExperienceView(
          await experiencesRepository(tx).insert({
            ...row,
            schedules: JSON.stringify(schedules),
            demographics: JSON.stringify(demographics),
            guide: null,
          }),
        );
        await emit(tx, caller, 'experience.create', view);
        return view;
      });
    },

    async get(caller: Caller | null, id: string): Promise<ExperienceView> {
      return toExperienceView(await visible(caller, id));
    },

    /** The experiences of these ids the caller may see, as views (`expand`). */
    async views(caller: Caller | null, ids: readonly string[]) {
      const rows = (await repo.findMany(ids)).filter((row) => canView(caller, row));
      return new Map(rows.map((row) => [row.id, toExperienceView(row)]));
    },

    async update(caller: Caller, id: string, input: ExperienceInput): Promise<ExperienceView> {
      await managed(caller, id);
      return change(caller, id, async (tx, current) => {
        const next = {
          name: input.name ?? current.name,
          description: input.desc ?? current.description,
          price: input.price ?? current.price,
          price_type: input.priceType ?? current.price_type,
          currency: input.currency ?? current.currency,
          duration: input.duration ?? current.duration,
          timezone: input.timezone ?? current.timezone,
          order_min:
            input.group && 'orderMin' in input.group
              ? (input.group.orderMin ?? null)
              : current.order_min,
          order_max:
            input.group && 'orderMax' in input.group
              ? (input.group.orderMax ?? null)
              : current.order_max,
          outing_max:
            input.group && 'outingMax' in input.group
              ? (input.group.outingMax ?? null)
              : current.outing_max,
          visible: input.visible ?? current.visible,
        };
        const schedules = input.schedules ? withIds(input.schedules) : schedulesOf(current);
        const demographics = input.demographics
          ? storedDemographics(input.demographics)
          : demographicsOf(current);
        check(next, schedules, demographics);
        next.timezone = canonicalZone(next.timezone);
        const row = await experiencesRepository(tx).update(id, {
          ...next,
          schedules: JSON.stringify(schedules),
          demographics: JSON.stringify(demographics),
        });
        return { row, result: toExperienceView(row) };
      });
    },

    /** `GET /api/experiences/{id}/schedules/{scheduleId}`: whoever sees the experience. */
    async schedule(caller: Caller | null, id: string, scheduleId: string) {
      const schedules = schedulesOf(await visible(caller, id));
      return schedules[scheduleAt(schedules, id, scheduleId)]!;
    },

    /** Adds a schedule (a new id); answers with it. */
    async addSchedule(caller: Caller, id: string, input: ScheduleInput, record?: Recorder) {
      await managed(caller, id);
      return changeSchedules(
        caller,
        id,
        (schedules) => {
          const [added] = withIds([{ ...input, id: undefined }]);
          return { schedules: [...schedules, added!], result: added! };
        },
        record,
      );
    },

    /** Replaces a schedule with the one given, under the same id (its place kept). */
    async replaceSchedule(caller: Caller, id: string, scheduleId: string, input: ScheduleInput) {
      await managed(caller, id);
      return changeSchedules(caller, id, (schedules) => {
        const index = scheduleAt(schedules, id, scheduleId);
        const [replaced] = withIds([{ ...input, id: scheduleId }]);
        return { schedules: schedules.with(index, replaced!), result: replaced! };
      });
    },

    /** Removes a schedule; booked orders and their events stay as they are (docs). */
    async removeSchedule(caller: Caller, id: string, scheduleId: string): Promise<void> {
      await managed(caller, id);
      await changeSchedules(caller, id, (schedules) => {
        const index = scheduleAt(schedules, id, scheduleId);
        return { schedules: schedules.toSpliced(index, 1), result: undefined };
      });
    },

    /** Guide preferences: created once (409 after), then changed with updateGuide. */
    async createGuide(
      caller: Caller,
      id: string,
      input: GuidePreferences,
    ): Promise<ExperienceView> {
      await managedGuides(caller, id);
      const row = await change(caller, id, async (tx) => {
        const created = await experiencesRepository(tx).createGuidePreferences(id, {
          required: input.required ?? 0,
          autoAssign: input.autoAssign ?? false,
          includeInConfirmation: input.includeInConfirmation ?? false,
        });
        return { row: created, result: created };
      });
      if (!row) {
        throw new DomainError(
          'guide_preferences_exist',
          'This experience already has guide preferences; change them with PUT.',
        );
      }
      return toExperienceView(row);
    },

    async updateGuide(
      caller: Caller,
      id: string,
      input: GuidePreferences,
    ): Promise<ExperienceView> {
      await managedGuides(caller, id);
      const row = await change(caller, id, async (tx) => {
        const updated = await experiencesRepository(tx).updateGuidePreferences(id, { ...input });
        return { row: updated, result: updated };
      });
      if (!row) throw notFound(`Guide preferences of experience ${id}`);
      return toExperienceView(row);
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const current = await managed(caller, id);
      try {
        // One statement: its events go with it (on delete cascade), and a booked order
        // refuses it through its foreign key, however recently it was booked.
        await inTransaction(db, async (tx) => {
          await experiencesRepository(tx).remove(id);
          await emit(tx, caller, 'experience.delete', toExperienceView(current));
        });
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        throw new DomainError(
          'experience_has_bookings',
          'Orders were booked on this experience; hide it with visible: false instead.',
        );
      }
    },
  };
}

export type ExperiencesService = ReturnType<typeof experiencesService>;
