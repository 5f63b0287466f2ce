/**
 * A seller's guides as profiles (`/api/sellers/{id}/guides`): listed, created, read,
 * changed and deleted by whoever manages the seller's guides, and the views
 * `expand=guides` asks for. A profile may be linked to a user account the seller knows,
 * one profile per user and seller. Deleting one takes the guide off the events that have
 * not started, in the same transaction.
 */
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { normalizeSchedule, type ScheduleInput } from '../schedules/index.js';
import { delegatesFacade } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { checkSchedules, emit, guide, managed, type GuidesContext } from './guides.context.js';
import { guideList } from './guides.list.js';
import { guidesRepository } from './guides.repository.js';
import { toGuideView, type GuideRow, type GuideView } from './guides.schemas.js';

/** A profile's details as a request gives them (guides.schemas.ts' `GuideProfile` is the facade's). */
export interface GuideProfileInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  bio?: string;
  picture?: string | null;
  user?: { id: string } | null;
}

/**
 * A guide may be linked only to a user the seller knows (its delegate by id, or invited
 * and accepted): the same refusal for anyone else and for an unknown id.
 */
async function linkedUser(
  ctx: GuidesContext,
  sellerId: string,
  user: { id: string } | null | undefined,
): Promise<string | null | undefined> {
  if (user === undefined || user === null) return user;
  if (!(await delegatesFacade.isKnownDelegate(ctx.db, sellerId, user.id))) {
    throw invalid('body', 'user.id', 'is not a delegate of this seller');
  }
  return user.id;
}

/** One guide profile per user and seller (the unique index `guides_seller_user`). */
function refusedIfProfileTaken(error: unknown): never {
  if (isUniqueViolation(error, 'guides_seller_user'))
    throw invalid('body', 'user.id', 'already has a guide profile at this seller');
  throw error;
}

/**
 * The live guides of these ids whose seller's guides the caller manages, as views
 * (`expand=guides`): profiles hold contact details, so no one else gets them.
 */
export async function views(
  ctx: GuidesContext,
  caller: Caller | null,
  ids: readonly string[],
): Promise<Map<string, GuideView>> {
  if (!caller) return new Map();
  const access = accessOf(caller);
  const rows = (await guidesRepository(ctx.db).findMany(ids)).filter(
    (row) => row.deleted_at === null && access.can('guides', row.seller_id),
  );
  return new Map(rows.map((row) => [row.id, toGuideView(row)]));
}

/**
 * A list of guides the caller may not see is empty, never an error (the specification's
 * rule for lists), and the same for a seller that does not exist.
 */
export async function list(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  query: Record<string, unknown>,
) {
  const allowed =
    accessOf(caller).can('guides', sellerId) && (await users.isSeller(ctx.db, sellerId));
  return runList(
    guideList,
    {
      path: `/api/sellers/${sellerId}/guides`,
      query,
      scope: { anyOf: allowed ? [{ field: 'seller', in: [sellerId] }] : [] },
    },
    guidesRepository(ctx.db).listSource(),
    (rows) => rows.map(toGuideView),
  );
}

export async function create(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  input: GuideProfileInput & { name: string; schedules?: ScheduleInput[] },
  record?: Recorder,
): Promise<GuideView> {
  await managed(ctx, caller, sellerId);
  const schedules = (input.schedules ?? []).map((s) => ({
    ...normalizeSchedule(s),
    id: newId(),
  }));
  checkSchedules(schedules, (i) => `schedules.${i}.`);
  const userId = (await linkedUser(ctx, sellerId, input.user)) ?? null;
  try {
    return await recordedCreate(ctx.db, record, async (tx) => {
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
      await emit(ctx, tx, caller, 'guide.create', view);
      return view;
    });
  } catch (error) {
    refusedIfProfileTaken(error);
  }
}

export async function get(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  id: string,
): Promise<GuideView> {
  return toGuideView(await guide(ctx, caller, sellerId, id));
}

/**
 * The live guide of the seller, locked in `tx` until it ends: a change and a delete of one
 * guide take turns, and one that comes second finds what the first left (404 once deleted).
 */
async function lockedGuide(tx: Tx, sellerId: string, id: string): Promise<GuideRow> {
  const row = await guidesRepository(tx).lock(id);
  if (!row || row.seller_id !== sellerId) throw notFound(`Guide ${id}`);
  return row;
}

/** Changes the fields given; `before` is the guide as locked, so it is what was changed. */
export async function update(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  id: string,
  input: GuideProfileInput,
): Promise<GuideView> {
  await guide(ctx, caller, sellerId, id);
  const user = await linkedUser(ctx, sellerId, input.user);
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const before = toGuideView(await lockedGuide(tx, sellerId, id));
      const row = await guidesRepository(tx).update(id, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.bio !== undefined ? { bio: input.bio } : {}),
        ...(input.picture !== undefined ? { picture: input.picture } : {}),
        ...(user !== undefined ? { user_id: user } : {}),
      });
      // The lock keeps it live; the guard is the repository's own.
      if (!row) throw notFound(`Guide ${id}`);
      const view = toGuideView(row);
      await emit(ctx, tx, caller, 'guide.update', view, before);
      return view;
    });
  } catch (error) {
    refusedIfProfileTaken(error);
  }
}

/**
 * Marks the guide deleted (its id stays on past events) and takes it off future ones, each
 * announced as `event.update`. Only a live guide: a repeated or concurrent DELETE is 404 and
 * announces nothing again.
 */
export async function remove(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  id: string,
): Promise<void> {
  await managed(ctx, caller, sellerId);
  const now = new Date();
  await inTransaction(ctx.db, async (tx) => {
    const view = toGuideView(await lockedGuide(tx, sellerId, id));
    if (!(await guidesRepository(tx).markDeleted(id, now))) throw notFound(`Guide ${id}`);
    await ctx.leaveFutureEvents(tx, ctx.domainEvents, caller.id, id, now);
    await emit(ctx, tx, caller, 'guide.delete', view);
  });
}
