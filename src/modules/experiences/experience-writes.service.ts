/**
 * Creating, changing and deleting an experience (`POST`, `PUT`, `DELETE /api/experiences`):
 * by its seller, the seller's curators and seller-admins, or an admin. Each checks the whole
 * experience (price, group bounds, schedules, guest types, the resources it uses: its
 * seller's) before it writes, and emits its `experience.*` event in the same transaction.
 */
import { isForeignKeyViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { canonicalZone } from '../schedules/index.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { resourcesFacade } from '../resources/index.js';
import { usersFacade as users } from '../users/index.js';
import {
  changeLocked,
  check,
  emit,
  managed,
  storedDemographics,
  withIds,
  type ExperienceInput,
  type ExperiencesContext,
} from './experiences.context.js';
import { experiencesRepository } from './experiences.repository.js';
import {
  demographicsOf,
  resourcesOf,
  schedulesOf,
  type StoredResourceUse,
  toExperienceView,
  type ExperienceView,
} from './experiences.schemas.js';

export type NewExperience = Required<
  Pick<ExperienceInput, 'name' | 'price' | 'priceType' | 'currency' | 'duration'>
> &
  ExperienceInput;

/** 400 naming the `i`th resource given: unknown, another seller's, or deleted meanwhile. */
const notAResource = (i: number) =>
  invalid('body', `resources.${i}.resource.id`, "is not a resource of the experience's seller");

/**
 * The resources an experience uses, as stored: each once, each a resource of its seller
 * (docs/resources.md); one query.
 */
async function storedResources(
  db: Executor,
  sellerId: string,
  input: NonNullable<ExperienceInput['resources']>,
): Promise<StoredResourceUse[]> {
  const ids = input.map((r) => r.resource.id);
  const found = new Map((await resourcesFacade.findMany(db, ids)).map((r) => [r.id, r]));
  input.forEach((r, i) => {
    if (ids.indexOf(r.resource.id) !== i)
      throw invalid('body', `resources.${i}.resource.id`, 'is listed twice');
    if (found.get(r.resource.id)?.seller.id !== sellerId) throw notAResource(i);
  });
  return input.map((r) => ({ id: r.resource.id, seatsPerGuest: r.seatsPerGuest ?? 1 }));
}

/**
 * The seller an experience is created for: the one named, or the caller itself. Staff of
 * sellers must name one (they may work for several); only sellers' staff and sellers
 * create experiences.
 */
async function sellerFor(ctx: ExperiencesContext, caller: Caller, input: NewExperience) {
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
  if (!(await users.isSeller(ctx.db, sellerId))) {
    if (sellerId === caller.id) {
      throw new DomainError(
        'forbidden',
        'Only sellers (ROLE_SELLER) and their delegates create experiences.',
      );
    }
    throw invalid('body', 'seller.id', 'is not a seller');
  }
  accessOf(caller).require('experiences', sellerId, `the experiences of seller ${sellerId}`);
  return sellerId;
}

export async function create(
  ctx: ExperiencesContext,
  caller: Caller,
  input: NewExperience,
  record?: Recorder,
): Promise<ExperienceView> {
  const sellerId = await sellerFor(ctx, caller, input);
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
  const resources = await storedResources(ctx.db, sellerId, input.resources ?? []);
  return recordedCreate(ctx.db, record, async (tx) => {
    // Locked, so that deleting one waits for this experience and then sees it uses it.
    if (resources.length > 0) {
      const existing = await resourcesFacade.existing(
        tx,
        resources.map((r) => r.id),
      );
      const gone = resources.findIndex((r) => !existing.has(r.id));
      if (gone >= 0) throw notAResource(gone);
    }
    const view = toExperienceView(
      await experiencesRepository(tx).insert({
        ...row,
        schedules: JSON.stringify(schedules),
        demographics: JSON.stringify(demographics),
        resources: JSON.stringify(resources),
        guide: null,
      }),
    );
    await emit(ctx, tx, caller, 'experience.create', view);
    return view;
  });
}

/** A group bound as given (`null` clears it), or as it was when the input leaves it out. */
const bound = (
  group: ExperienceInput['group'],
  key: 'orderMin' | 'orderMax' | 'outingMax',
  current: number | null,
): number | null => (group && key in group ? (group[key] ?? null) : current);

export async function update(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  input: ExperienceInput,
): Promise<ExperienceView> {
  await managed(ctx, caller, id);
  return changeLocked(ctx, caller, id, async (tx, current) => {
    const next = {
      name: input.name ?? current.name,
      description: input.desc ?? current.description,
      price: input.price ?? current.price,
      price_type: input.priceType ?? current.price_type,
      currency: input.currency ?? current.currency,
      duration: input.duration ?? current.duration,
      timezone: input.timezone ?? current.timezone,
      order_min: bound(input.group, 'orderMin', current.order_min),
      order_max: bound(input.group, 'orderMax', current.order_max),
      outing_max: bound(input.group, 'outingMax', current.outing_max),
      visible: input.visible ?? current.visible,
    };
    const schedules = input.schedules ? withIds(input.schedules) : schedulesOf(current);
    const demographics = input.demographics
      ? storedDemographics(input.demographics)
      : demographicsOf(current);
    check(next, schedules, demographics, schedulesOf(current));
    next.timezone = canonicalZone(next.timezone);
    // Bookings find their departure by its local time in this zone: in another one, 09:00
    // is another instant, a new departure with every seat open beside the old one holding
    // its guests (a boat sold twice).
    if (next.timezone !== current.timezone && (await ctx.seatsAhead(tx, id)))
      throw new DomainError(
        'experience_has_bookings',
        'Departures to come hold seats booked in this time zone: cancel or move them before changing the time zone.',
      );
    const resources = input.resources
      ? await storedResources(tx, current.seller_id, input.resources)
      : resourcesOf(current);
    const row = await experiencesRepository(tx).update(id, {
      ...next,
      schedules: JSON.stringify(schedules),
      demographics: JSON.stringify(demographics),
      resources: JSON.stringify(resources),
    });
    // What its departures hold follows the new list at once, under the resources' locks
    // (docs/resources.md); a resource deleted since it was read above is refused as unknown.
    if (input.resources) {
      const gone = await resourcesFacade.seats.relist(
        tx,
        id,
        resourcesOf(current),
        resources,
        new Date(),
      );
      if (gone.length > 0) throw notAResource(resources.findIndex((r) => r.id === gone[0]));
    }
    return { row, result: toExperienceView(row) };
  });
}

export async function remove(ctx: ExperiencesContext, caller: Caller, id: string): Promise<void> {
  const current = await managed(ctx, caller, id);
  try {
    // One statement: its events go with it (on delete cascade), and a booked order
    // refuses it through its foreign key, however recently it was booked.
    await inTransaction(ctx.db, async (tx) => {
      await experiencesRepository(tx).remove(id);
      await emit(ctx, tx, caller, 'experience.delete', toExperienceView(current));
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    throw new DomainError(
      'experience_has_bookings',
      'Orders were booked on this experience; hide it with visible: false instead.',
    );
  }
}
