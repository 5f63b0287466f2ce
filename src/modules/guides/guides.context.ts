/**
 * What every use case of guides runs with (the database, the events module's callback that
 * takes a deleted guide off future events, where `guide.*` events go), and what they share:
 * who manages a seller's guides, the guide found for them, the user a profile may link to,
 * the check of guide schedules. The use-case files (guide-profiles, guide-schedules) are
 * top-level functions taking this context first; guides.service.ts binds them to one.
 */
import type { Db } from '../../db/database.js';
import type { Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalidFields, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { scheduleErrors, scheduleTotalErrors, type ScheduleInput } from '../schedules/index.js';
import { usersFacade as users } from '../users/index.js';
import type { GuideRow, GuideView } from './guides.schemas.js';
import { guidesRepository } from './guides.repository.js';

export interface GuidesServiceDeps {
  db: Db;
  /**
   * Takes a deleted guide off the events that have not started, announcing each one it
   * leaves as `event.update` by `actorId` on `domainEvents` (the events module's).
   */
  leaveFutureEvents: (
    tx: Tx,
    domainEvents: EventSink,
    actorId: string,
    guideId: string,
    now: Date,
  ) => Promise<void>;
  domainEvents?: EventSink;
}

export type GuidesContext = Required<GuidesServiceDeps>;

export const guidesContext = (deps: GuidesServiceDeps): GuidesContext => ({
  domainEvents: noEvents,
  ...deps,
});

/** Guide schedules checked as a guide's (no capacity); 422 naming each error at `path(i)`. */
export function checkSchedules(schedules: ScheduleInput[], path: (i: number) => string): void {
  const errors = [
    ...schedules.flatMap((s, i) => scheduleErrors(s, path(i), 'guide')),
    ...scheduleTotalErrors(schedules),
  ];
  if (errors.length > 0) throw invalidFields(errors);
}

/** `guide.*` in the change's transaction; an update carries what changed. */
export const emit = (
  ctx: GuidesContext,
  tx: Tx,
  caller: Caller,
  name: 'guide.create' | 'guide.update' | 'guide.delete',
  after: GuideView,
  before?: GuideView,
) =>
  emitChange(ctx.domainEvents, tx, {
    name,
    sellerId: after.seller.id,
    actorId: caller.id,
    after,
    before,
  });

/** The seller must exist and the caller must manage its guides. */
export async function managed(ctx: GuidesContext, caller: Caller, sellerId: string): Promise<void> {
  if (!(await users.isSeller(ctx.db, sellerId))) throw notFound(`Seller ${sellerId}`);
  accessOf(caller).require('guides', sellerId, `the guides of seller ${sellerId}`);
}

/** A guide of the seller whose guides the caller manages; else 404 or 403. */
export async function guide(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  id: string,
): Promise<GuideRow> {
  await managed(ctx, caller, sellerId);
  const row = await guidesRepository(ctx.db).find(sellerId, id);
  if (!row) throw notFound(`Guide ${id}`);
  return row;
}
