/**
 * Guides and their availability schedules, managed by the seller, its ROLE_SELLER_ADMIN and
 * ROLE_GUIDE_MANAGER delegates (and admins). A guide id is the profile's own id, never a
 * user's; a profile may be linked to a user account.
 */
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { invalid, invalidFields, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import {
  normalizeSchedule,
  scheduleErrors,
  type Schedule,
  type ScheduleInput,
} from '../schedules/index.js';
import { delegatesFacade } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { guideList } from './guides.list.js';
import { type GuideRow, guideSchedulesOf, type GuideView, toGuideView } from './guides.schemas.js';
import { guidesRepository } from './guides.repository.js';

export interface GuideProfile {
  name?: string;
  email?: string | null;
  phone?: string | null;
  bio?: string;
  picture?: string | null;
  user?: { id: string } | null;
}

function checkSchedules(schedules: ScheduleInput[], path: (i: number) => string): void {
  const errors = schedules.flatMap((s, i) => scheduleErrors(s, path(i), 'guide'));
  if (errors.length > 0) {
    throw invalidFields(errors);
  }
}

export interface GuidesServiceDeps {
  db: Db;
  /** Takes a deleted guide off the events that have not started (the events module's). */
  leaveFutureEvents: (tx: Tx, guideId: string, now: Date) => Promise<void>;
  domainEvents?: EventSink;
}

export function guidesService({
  db,
  leaveFutureEvents,
  domainEvents = noEvents,
}: GuidesServiceDeps) {
  const repo = guidesRepository(db);

  /** `guide.*` in the change's transaction; an update carries what changed. */
  const emit = (
    tx: Tx,
    caller: Caller,
    name: 'guide.create' | 'guide.update' | 'guide.delete',
    after: GuideView,
    before?: GuideView,
  ) =>
    emitChange(domainEvents, tx, {
      name,
      sellerId: after.seller.id,
      actorId: caller.id,
      after,
      before,
    });

  /** The seller must exist and the caller must manage its guides. */
  async function managed(caller: Caller, sellerId: string): Promise<void> {
    if (!(await users.isSeller(db, sellerId))) throw notFound(`Seller ${sellerId}`);
    accessOf(caller).require('guides', sellerId, `the guides of seller ${sellerId}`);
  }

  async function guide(caller: Caller, sellerId: string, id: string): Promise<GuideRow> {
    await managed(caller, sellerId);
    const row = await repo.find(sellerId, id);
    if (!row) throw notFound(`Guide ${id}`);
    return row;
  }

  /**
   * A guide may be linked only to a user the seller knows (its delegate by id, or invited
   * and accepted): the same refusal for anyone else and for an unknown id.
   */
  async function linkedUser(
    sellerId: string,
    user: { id: string } | null | undefined,
  ): Promise<string | null | undefined> {
    if (user === undefined || user === null) return user;
    if (!(await delegatesFacade.isKnownDelegate(db, sellerId, user.id))) {
      throw invalid('body', 'user.id', 'is not a delegate of this seller');
    }
    return user.id;
  }

  const profileTaken = () =>
    invalid('body', 'user.id', 'already has a guide profile at this seller');

  /**
   * Changes the schedules of a guide under its row lock, so concurrent edits add up; answers
   * with the guide (the answer of every schedule change but a create).
   */
  async function editSchedules(
    caller: Caller,
    sellerId: string,
    guideId: string,
    edit: (schedules: ScheduleInput[]) => ScheduleInput[],
  ): Promise<GuideView> {
    await guide(caller, sellerId, guideId);
    return inTransaction(db, (tx) => writeSchedules(tx, caller, guideId, edit));
  }

  async function writeSchedules(
    tx: Tx,
    caller: Caller,
    guideId: string,
    edit: (schedules: ScheduleInput[]) => ScheduleInput[],
  ): Promise<GuideView> {
    const guides = guidesRepository(tx);
    const row = await guides.lock(guideId);
    if (!row) throw notFound(`Guide ${guideId}`);
    const schedules = edit(guideSchedulesOf(row));
    const view = toGuideView(
      await guides.update(guideId, { schedules: JSON.stringify(schedules) }),
    );
    await emit(tx, caller, 'guide.update', view, toGuideView(row));
    return view;
  }

  return {
    /**
     * The live guides of these ids whose seller's guides the caller manages, as views
     * (`expand=guides`): profiles hold contact details, so no one else gets them.
     */
    async views(caller: Caller | null, ids: readonly string[]): Promise<Map<string, GuideView>> {
      if (!caller) return new Map();
      const access = accessOf(caller);
      const rows = (await guidesRepository(db).findMany(ids)).filter(
        (row) => row.deleted_at === null && access.can('guides', row.seller_id),
      );
      return new Map(rows.map((row) => [row.id, toGuideView(row)]));
    },

    /**
     * A list of guides the caller may not see is empty, never an error (the specification's
     * rule for lists), and the same for a seller that does not exist.
     */
    async list(caller: Caller, sellerId: string, query: Record<string, unknown>) {
      const allowed =
        accessOf(caller).can('guides', sellerId) && (await users.isSeller(db, sellerId));
      return runList(
        guideList,
        {
          path: `/api/sellers/${sellerId}/guides`,
          query,
          scope: { anyOf: allowed ? [{ field: 'seller', in: [sellerId] }] : [] },
        },
        repo.listSource(),
        (rows) => rows.map(toGuideView),
      );
    },

    async create(
      caller: Caller,
      sellerId: string,
      input: GuideProfile & { name: string; schedules?: ScheduleInput[] },
      record?: Recorder,
    ): Promise<GuideView> {
      await managed(caller, sellerId);
      const schedules = (input.schedules ?? []).map((s) => ({
        ...normalizeSchedule(s),
        id: newId(),
      }));
      checkSchedules(schedules, (i) => `schedules.${i}.`);
      const userId = (await linkedUser(sellerId, input.user)) ?? null;
      try {
        return await recordedCreate(db, record, async (tx) => {
          const view = toGuideView(
            await guidesRepository(tx).insert({
              id: newId(),
              seller_id: sellerId,
              user_id: userId,
              name: input.name.trim(),
              email: input.email ?? null,
              phone: input.phone ?? null,
              bio: input.bio ?? '',
              picture: input.picture ?? null,
              schedules: JSON.stringify(schedules),
            }),
          );
          await emit(tx, caller, 'guide.create', view);
          return view;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'guides_seller_user')) throw profileTaken();
        throw error;
      }
    },

    async get(caller: Caller, sellerId: string, id: string): Promise<GuideView> {
      return toGuideView(await guide(caller, sellerId, id));
    },

    async update(
      caller: Caller,
      sellerId: string,
      id: string,
      input: GuideProfile,
    ): Promise<GuideView> {
      const before = toGuideView(await guide(caller, sellerId, id));
      const user = await linkedUser(sellerId, input.user);
      try {
        return await inTransaction(db, async (tx) => {
          const view = toGuideView(
            await guidesRepository(tx).update(id, {
              ...(input.name !== undefined ? { name: input.name.trim() } : {}),
              ...(input.email !== undefined ? { email: input.email } : {}),
              ...(input.phone !== undefined ? { phone: input.phone } : {}),
              ...(input.bio !== undefined ? { bio: input.bio } : {}),
              ...(input.picture !== undefined ? { picture: input.picture } : {}),
              ...(user !== undefined ? { user_id: user } : {}),
            }),
          );
          await emit(tx, caller, 'guide.update', view, before);
          return view;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'guides_seller_user')) throw profileTaken();
        throw error;
      }
    },

    async remove(caller: Caller, sellerId: string, id: string): Promise<void> {
      const view = toGuideView(await guide(caller, sellerId, id));
      const now = new Date();
      await inTransaction(db, async (tx) => {
        await guidesRepository(tx).markDeleted(id, now);
        await leaveFutureEvents(tx, id, now);
        await emit(tx, caller, 'guide.delete', view);
      });
    },

    /** Adds a schedule; answers with it (its new id), as Xola's schedule create does. */
    async addSchedule(
      caller: Caller,
      sellerId: string,
      guideId: string,
      input: ScheduleInput,
      record?: Recorder,
    ): Promise<Schedule> {
      checkSchedules([input], () => '');
      const added = { ...normalizeSchedule(input), id: newId() };
      await guide(caller, sellerId, guideId);
      return recordedCreate(db, record, async (tx) => {
        await writeSchedules(tx, caller, guideId, (schedules) => [...schedules, added]);
        return added;
      });
    },

    updateSchedule: (
      caller: Caller,
      sellerId: string,
      guideId: string,
      scheduleId: string,
      input: ScheduleInput,
    ) =>
      editSchedules(caller, sellerId, guideId, (schedules) => {
        if (!schedules.some((s) => s.id === scheduleId)) throw notFound(`Schedule ${scheduleId}`);
        checkSchedules([input], () => '');
        return schedules.map((s) =>
          s.id === scheduleId ? { ...normalizeSchedule(input), id: scheduleId } : s,
        );
      }),

    removeSchedule: (caller: Caller, sellerId: string, guideId: string, scheduleId: string) =>
      editSchedules(caller, sellerId, guideId, (schedules) => {
        if (!schedules.some((s) => s.id === scheduleId)) throw notFound(`Schedule ${scheduleId}`);
        return schedules.filter((s) => s.id !== scheduleId);
      }),
  };
}

export type GuidesService = ReturnType<typeof guidesService>;
