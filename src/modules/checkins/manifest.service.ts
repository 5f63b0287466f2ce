/**
 * A departure's manifest (`GET /api/events/{id}/manifest`): the event with its guides, and
 * every live guest with its booking's name, code, notes and status, with counts. Two
 * queries whatever the number of guests: the event with its guides' profiles, then the
 * guests with their orders and items. The seller and its check-in staff; anyone else 404.
 */
import type { Db } from '../../db/database.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { notFound } from '../../domain/errors.js';
import { eventsFacade } from '../events/index.js';
import { ordersFacade } from '../orders/index.js';
import { iso, refOrNull } from '../shared/index.js';
import type { ManifestView } from './checkins.schemas.js';

export function manifestService(deps: { db: Db }) {
  return {
    async manifest(caller: Caller, eventId: string): Promise<ManifestView> {
      const head = await eventsFacade.withGuides(deps.db, eventId);
      if (!head || !accessOf(caller).can('checkins', head.event.seller.id))
        throw notFound(`Event ${eventId}`);
      const guests = await ordersFacade.guests.atEvent(deps.db, eventId);
      const count = (status: string) => guests.filter((g) => g.guestStatus === status).length;
      return {
        object: 'manifest',
        event: head.event,
        // The departure's local date, as its start shows it.
        date: head.event.start.slice(0, 10),
        timezone: head.timezone,
        guides: head.guides,
        counts: {
          booked: guests.length,
          arrived: count('arrived'),
          noShow: count('no_show'),
          pending: count('pending'),
        },
        guests: guests.map((g) => ({
          id: g.id,
          name: g.order.customerName,
          guestType: g.guestType,
          demographic: refOrNull(g.demographicId),
          order: { id: g.order.id },
          shortCode: g.order.shortCode,
          ticketCode: g.ticketCode,
          guestStatus: g.guestStatus,
          checkedInAt: g.checkedInAt === null ? null : iso(g.checkedInAt),
          itemStatus: g.itemStatus,
          notes: g.order.notes,
        })),
      };
    },
  };
}

export type ManifestService = ReturnType<typeof manifestService>;
