/**
 * Experiences: what a seller sells. Created and changed by the seller, its curators and
 * seller-admins (or an admin); visible ones, and their availability, are public.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { ApiError, invalid, notFound } from '../../http/errors.js';
import { runList } from '../../query/run.js';
import { accessFor, type Access } from '../access/access.js';
import { listScopes } from '../access/list-scopes.js';
import { eventsRepository } from '../events/events.repository.js';
import { canonicalZone } from '../schedules/local-time.js';
import { isDate, type ScheduleInput } from '../schedules/schedule.rules.js';
import type { Caller } from '../users/caller.js';
import { usersRepository } from '../users/users.repository.js';
import {
  MAX_AVAILABILITY_DAYS,
  availability,
  daysBetween,
  departureInstants,
} from './availability.js';
import {
  schedulesOf,
  toExperienceView,
  type ExperienceRow,
  type ExperienceView,
} from './experiences.mapper.js';
import { experienceSpec } from './experiences.query.js';
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
  visible?: boolean;
}

export interface GuidePreferences {
  required?: number;
  autoAssign?: boolean;
  includeInConfirmation?: boolean;
}

/** Schedules as stored: every one with an id. */
const withIds = (schedules: ScheduleInput[]) =>
  schedules.map((s) => ({ ...s, id: s.id ?? newId() }));

export function experiencesService({ db }: { db: Db }) {
  const repo = experiencesRepository(db);
  const events = eventsRepository(db);

  function check(
    row: Pick<ExperienceRow, 'price' | 'currency' | 'timezone' | 'order_min' | 'order_max'>,
    schedules: ScheduleInput[],
  ) {
    const errors = experienceErrors({
      price: row.price,
      currency: row.currency,
      timezone: row.timezone,
      orderMin: row.order_min,
      orderMax: row.order_max,
      schedules,
    });
    if (errors.length > 0) {
      throw new ApiError(
        'validation_failed',
        errors.map((e) => `${e.name}: ${e.detail}`).join('; '),
        { errors },
      );
    }
  }

  /** An experience the caller may see: visible, or one it manages; else 404. */
  async function visible(
    caller: Caller | null,
    id: string,
  ): Promise<{ row: ExperienceRow; access: Access | null }> {
    const row = await repo.findById(id);
    const access = caller && accessFor(db, caller);
    if (!row || (!row.visible && !(access && (await access.can('events', row.seller_id))))) {
      throw notFound(`Experience ${id}`);
    }
    return { row, access };
  }

  /** Guide preferences are set by whoever manages the experience or the seller's guides. */
  async function managedGuides(caller: Caller, id: string): Promise<ExperienceRow> {
    const { row, access } = await visible(caller, id);
    if (!(await access!.can('guides', row.seller_id))) {
      await access!.require('experiences', row.seller_id, `experience ${id}`);
    }
    return row;
  }

  async function managed(caller: Caller, id: string): Promise<ExperienceRow> {
    const { row, access } = await visible(caller, id);
    await access!.require('experiences', row.seller_id, `experience ${id}`);
    return row;
  }

  return {
    list: async (caller: Caller | null, query: Record<string, unknown>) =>
      runList(
        experienceSpec,
        {
          path: '/api/experiences',
          query,
          scope: await listScopes.experiences(caller && accessFor(db, caller)),
        },
        repo.listSource(),
        (rows) => rows.map(toExperienceView),
      ),

    async create(
      caller: Caller,
      input: Required<
        Pick<ExperienceInput, 'name' | 'price' | 'priceType' | 'currency' | 'duration'>
      > &
        ExperienceInput,
    ): Promise<ExperienceView> {
      if (!input.seller && !caller.roles.includes('ROLE_SELLER')) {
        const sellers = await accessFor(db, caller).sellersFor('experiences');
        if (sellers === 'all' || sellers.length > 0) {
          throw invalid(
            'body',
            'seller.id',
            'is required: you create experiences for a seller you work for',
          );
        }
      }
      const sellerId = input.seller?.id ?? caller.id;
      const seller = await usersRepository(db).findById(sellerId);
      if (!seller || !seller.roles.includes('ROLE_SELLER')) {
        if (sellerId === caller.id) {
          throw new ApiError(
            'forbidden',
            'Only sellers (ROLE_SELLER) and their delegates create experiences.',
          );
        }
        throw invalid('body', 'seller.id', 'is not a seller');
      }
      await accessFor(db, caller).require(
        'experiences',
        sellerId,
        `the experiences of seller ${sellerId}`,
      );
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
      check(row, schedules);
      row.timezone = canonicalZone(row.timezone);
      return toExperienceView(
        await repo.insert({ ...row, schedules: JSON.stringify(schedules), guide: null }),
      );
    },

    async get(caller: Caller | null, id: string): Promise<ExperienceView> {
      return toExperienceView((await visible(caller, id)).row);
    },

    async update(caller: Caller, id: string, input: ExperienceInput): Promise<ExperienceView> {
      const current = await managed(caller, id);
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
      check(next, schedules);
      next.timezone = canonicalZone(next.timezone);
      return toExperienceView(
        await repo.update(id, { ...next, schedules: JSON.stringify(schedules) }),
      );
    },

    /** Guide preferences: created once (409 after), then changed with updateGuide. */
    async createGuide(
      caller: Caller,
      id: string,
      input: GuidePreferences,
    ): Promise<ExperienceView> {
      await managedGuides(caller, id);
      const row = await repo.createGuidePreferences(id, {
        required: input.required ?? 0,
        autoAssign: input.autoAssign ?? false,
        includeInConfirmation: input.includeInConfirmation ?? false,
      });
      if (!row) {
        throw new ApiError(
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
      const row = await repo.updateGuidePreferences(id, { ...input });
      if (!row) throw notFound(`Guide preferences of experience ${id}`);
      return toExperienceView(row);
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await managed(caller, id);
      if (await repo.hasBookings(id)) {
        throw new ApiError(
          'experience_has_bookings',
          'Orders were booked on this experience; hide it with visible: false instead.',
        );
      }
      await db.transaction().execute((trx) => experiencesRepository(trx).remove(id));
    },

    async availability(
      caller: Caller | null,
      id: string,
      start: string,
      end: string,
    ): Promise<Record<string, Record<string, number | null>>> {
      if (!isDate(start)) throw invalid('query', 'start', 'must be a real date YYYY-MM-DD');
      if (!isDate(end)) throw invalid('query', 'end', 'must be a real date YYYY-MM-DD');
      if (end < start) throw invalid('query', 'end', 'must not be before start');
      // Counted, not walked: a range of centuries is refused at once.
      if (daysBetween(start, end) > MAX_AVAILABILITY_DAYS) {
        throw invalid('query', 'end', `at most ${MAX_AVAILABILITY_DAYS} days from start`);
      }
      const { row } = await visible(caller, id);
      const input = {
        schedules: schedulesOf(row),
        timezone: row.timezone,
        outingMax: row.outing_max,
        start,
        end,
      };
      const instants = departureInstants(input);
      const booked = instants.length === 0 ? [] : await events.startingAt(id, instants);
      return availability(input, booked);
    },
  };
}

export type ExperiencesService = ReturnType<typeof experiencesService>;
