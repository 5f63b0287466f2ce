/**
 * Reseller bookings as OCTo shows them (the bookings service's answers and webhook bodies):
 * each with its product and its departure's seats now, a list reading each product and the
 * seats of its departures once.
 */
import type { BookingEnv } from '../../config.js';
import type { Db } from '../../db/database.js';
import { READ_WIDTH, inTurns } from '../../db/in-turns.js';
import type { Reseller } from '../../domain/caller.js';
import { eventsFacade, type DepartureSeats } from '../events/index.js';
import { experiencesFacade } from '../experiences/index.js';
import type { ResellerBookingRead } from '../orders/index.js';
import { toOctoBooking } from './booking.mapping.js';
import type { CapabilityId } from './capabilities.js';
import type { OctoBookingView } from './octo.schemas.js';
import { pricingFor } from './octo.service.js';
import { productOf } from './products.js';

export function bookingViews(deps: { db: Db; env: BookingEnv; now: () => Date }) {
  const { db, now } = deps;

  type Experience = NonNullable<Awaited<ReturnType<typeof experiencesFacade.find>>>;

  /** Where a booking's departure is: its first item's start. */
  const startOf = (read: ResellerBookingRead) => new Date(read.order.items[0]!.arrivalDatetime);

  /** A booking as OCTo shows it, given its product and its departure's seats now. */
  function render(
    read: ResellerBookingRead,
    experience: Experience,
    departure: DepartureSeats | undefined,
    reseller: Reseller,
    capabilities: readonly CapabilityId[],
  ): OctoBookingView {
    const start = startOf(read);
    return toOctoBooking(
      {
        ...read,
        product: productOf(experience),
        departure: departure ?? { start, capacity: null, reserved: 0, closed: true },
      },
      { now: now(), testMode: deps.env === 'sandbox', ...pricingFor(reseller, capabilities) },
    );
  }

  /** One booking as OCTo shows it: with its product and its departure's seats now. */
  async function view(
    read: ResellerBookingRead,
    reseller: Reseller,
    capabilities: readonly CapabilityId[],
  ): Promise<OctoBookingView> {
    const [answer] = await views([read], reseller, capabilities);
    return answer!;
  }

  /**
   * Bookings as OCTo shows them: each product read once, and the seats of its departures in
   * one query (a list of 40 bookings sent 201 statements, two of them per booking for this).
   */
  async function views(
    reads: readonly ResellerBookingRead[],
    reseller: Reseller,
    capabilities: readonly CapabilityId[],
  ): Promise<OctoBookingView[]> {
    const byExperience = new Map<string, ResellerBookingRead[]>();
    for (const read of reads) {
      const id = read.order.items[0]!.experience.id;
      const group = byExperience.get(id);
      if (group) group.push(read);
      else byExperience.set(id, [read]);
    }
    const products = new Map<string, { experience: Experience; at: Map<number, DepartureSeats> }>();
    await inTurns([...byExperience], READ_WIDTH, async ([id, group]) => {
      const experience = (await experiencesFacade.find(db, id))!;
      const starts = [...new Set(group.map((read) => startOf(read).getTime()))];
      const seats = await eventsFacade.departuresAt(
        db,
        experience,
        starts.map((ms) => new Date(ms)),
      );
      products.set(id, { experience, at: new Map(seats.map((d) => [d.start.getTime(), d])) });
    });
    return reads.map((read) => {
      const product = products.get(read.order.items[0]!.experience.id)!;
      const departure = product.at.get(startOf(read).getTime());
      return render(read, product.experience, departure, reseller, capabilities);
    });
  }

  return { view, views };
}
