/**
 * OCTo's bookings (docs/octo.md, "Bookings"): each request checked in the order OCTo's
 * validator expects (product, option, availability, unit items), then made or changed
 * through the orders module's reseller use cases (one booking path, one seat interface),
 * and answered as an OCTo booking. The orders module's refusals become OCTo's codes here.
 */
import { createHash, randomUUID } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import type { BookingEnv } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Reseller } from '../../domain/caller.js';
import type { EventSink } from '../../outbox/index.js';
import { eventsFacade } from '../events/index.js';
import { experiencesFacade } from '../experiences/index.js';
import {
  resellerBookings,
  type BookingChange,
  type ResellerBookingRead,
  type ResellerBookingsFilter,
  type ResellerSeatAsked,
} from '../orders/index.js';
import { bookingViews } from './booking-views.js';
import type { CapabilityId } from './capabilities.js';
import {
  availabilityIdOf,
  startOfAvailabilityId,
  type Departure,
  type Product,
} from './departures.js';
import type {
  OctoBookingCancellationInput,
  OctoBookingConfirmationInput,
  OctoBookingReservationInput,
  OctoBookingUpdateInput,
  OctoExtendReservationInput,
  OctoGetBookingsInput,
  OctoUnitItemInput,
} from './octo.bodies.js';
import { fail } from './octo.errors.js';
import { contactGiven, guarded, uuidOf } from './booking-inputs.js';
import type { OctoBookingView } from './octo.schemas.js';
import { checkCurrency } from './octo.service.js';
import { productFor, productOf } from './products.js';
import { bookingsQueryOf, checkOption, holdMinutesOf, seatsAskedOf } from './requests.js';

// canonicalize is CommonJS; under NodeNext its default export arrives as the function itself.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

export interface OctoBookingsDeps {
  db: Db;
  env: BookingEnv;
  domainEvents?: EventSink;
  now?: () => Date;
}

export function octoBookingsService(deps: OctoBookingsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const orders = { db, now, ...(deps.domainEvents ? { domainEvents: deps.domainEvents } : {}) };

  /** A departure of `product` named by an availability id; INVALID_AVAILABILITY_ID if none. */
  async function departureAt(
    experience: Parameters<typeof eventsFacade.departuresAt>[1],
    product: Product,
    availabilityId: string | undefined,
  ): Promise<Departure> {
    const start =
      availabilityId === undefined ? undefined : startOfAvailabilityId(product, availabilityId);
    const [departure] = start ? await eventsFacade.departuresAt(db, experience, [start]) : [];
    return departure ?? fail('INVALID_AVAILABILITY_ID', availabilityId);
  }

  const seatsOf = (product: Product, items: readonly OctoUnitItemInput[] | undefined) =>
    seatsAskedOf(product, items).seats.map((s): ResellerSeatAsked => ({
      demographicId: s.unit.demographicId,
      uuid: s.uuid,
      resellerReference: s.resellerReference,
      contact: s.contact,
    }));

  const { view, views } = bookingViews({ db, env: deps.env, now });

  /** The product of a reseller's booking, for the unit ids a request names. */
  const productOfBooking = async (reseller: Reseller, uuid: string) => {
    const read = await guarded(uuid, () => resellerBookings.find(db, reseller, uuid));
    const experience = (await experiencesFacade.find(db, read.order.items[0]!.experience.id))!;
    return { read, experience, product: productOf(experience) };
  };

  return {
    /** A reseller's booking as OCTo shows it, without capabilities (webhook bodies). */
    viewOf: (read: ResellerBookingRead, reseller: Reseller) => view(read, reseller, []),

    async reserve(
      reseller: Reseller,
      body: OctoBookingReservationInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const { experience, product } = await productFor(db, reseller, body.productId);
      checkOption(body.optionId);
      const departure = await departureAt(experience, product, body.availabilityId);
      checkCurrency(product, body.currency);
      const seats = seatsOf(product, body.unitItems);
      const uuid = body.uuid?.toLowerCase() ?? randomUUID();
      const read = await guarded(uuid, () =>
        resellerBookings.reserve(orders, reseller, {
          uuid,
          requestDigest: createHash('sha256')
            .update(canonicalize(body) ?? '')
            .digest(),
          experienceId: experience.id,
          start: departure.start,
          seats,
          holdMinutes: holdMinutesOf(body.expirationMinutes),
          resellerReference: body.resellerReference ?? null,
          contact: contactGiven(body.contact),
          notes: body.notes ?? null,
        }),
      );
      return view(read, reseller, capabilities);
    },

    async confirm(
      reseller: Reseller,
      uuidText: string,
      body: OctoBookingConfirmationInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const uuid = uuidOf(uuidText);
      const { product } = await productOfBooking(reseller, uuid);
      const change = {
        contact: contactGiven(body.contact),
        ...(body.unitItems ? { seats: seatsOf(product, body.unitItems) } : {}),
        ...(body.resellerReference !== undefined
          ? { resellerReference: body.resellerReference }
          : {}),
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
      };
      const read = await guarded(uuid, () =>
        resellerBookings.confirm(orders, reseller, uuid, change),
      );
      return view(read, reseller, capabilities);
    },

    async extend(
      reseller: Reseller,
      uuidText: string,
      body: OctoExtendReservationInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const uuid = uuidOf(uuidText);
      const minutes = holdMinutesOf(body.expirationMinutes);
      const read = await guarded(uuid, () =>
        resellerBookings.extend(orders, reseller, uuid, minutes),
      );
      return view(read, reseller, capabilities);
    },

    async update(
      reseller: Reseller,
      uuidText: string,
      body: OctoBookingUpdateInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const uuid = uuidOf(uuidText);
      const current = await productOfBooking(reseller, uuid);
      const target =
        body.productId === undefined || body.productId === current.experience.id
          ? current
          : await productFor(db, reseller, body.productId);
      if (body.optionId !== undefined) checkOption(body.optionId);
      const moving = target !== current || body.availabilityId !== undefined;
      const availabilityId =
        body.availabilityId ??
        availabilityIdOf(target.product, new Date(current.read.order.items[0]!.arrivalDatetime));
      const change: Omit<BookingChange, 'status'> = {
        ...(moving
          ? {
              experienceId: target.experience.id,
              start: (await departureAt(target.experience, target.product, availabilityId)).start,
            }
          : {}),
        ...(body.unitItems ? { seats: seatsOf(target.product, body.unitItems) } : {}),
        ...(body.contact !== undefined ? { contact: contactGiven(body.contact) } : {}),
        ...(body.resellerReference !== undefined
          ? { resellerReference: body.resellerReference }
          : {}),
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
        ...(body.expirationMinutes !== undefined ? { holdMinutes: body.expirationMinutes } : {}),
      };
      const read = await guarded(uuid, () =>
        resellerBookings.change(orders, reseller, uuid, change),
      );
      return view(read, reseller, capabilities);
    },

    async cancel(
      reseller: Reseller,
      uuidText: string,
      body: OctoBookingCancellationInput | undefined,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const uuid = uuidOf(uuidText);
      const read = await guarded(uuid, () =>
        resellerBookings.cancel(orders, reseller, uuid, body?.reason ?? null),
      );
      return view(read, reseller, capabilities);
    },

    async get(
      reseller: Reseller,
      uuidText: string,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView> {
      const uuid = uuidOf(uuidText);
      const read = await guarded(uuid, () => resellerBookings.find(db, reseller, uuid));
      return view(read, reseller, capabilities);
    },

    async list(
      reseller: Reseller,
      query: OctoGetBookingsInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoBookingView[]> {
      const asked = bookingsQueryOf(query);
      const filter: ResellerBookingsFilter =
        'supplierReference' in asked
          ? { shortCode: asked.supplierReference.toUpperCase() }
          : 'resellerReference' in asked
            ? { resellerReference: asked.resellerReference }
            : { arrival: asked.dates };
      const reads = await guarded(undefined, () => resellerBookings.list(db, reseller, filter));
      return views(reads, reseller, capabilities);
    },
  };
}

export type OctoBookingsService = ReturnType<typeof octoBookingsService>;
