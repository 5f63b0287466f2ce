/**
 * OCTo's reads (docs/octo.md): the supplier (the seller), its products (visible experiences),
 * the availability of a product's departures and its calendar, answered from the same
 * experiences and events as Xola's API. The calendar of a year is two queries: the
 * experience, then its events over the range (a range scan, events facade).
 */
import type { Db } from '../../db/database.js';
import type { Reseller } from '../../domain/caller.js';
import { eventsFacade, MAX_AVAILABILITY_DEPARTURES } from '../events/index.js';
import { experiencesFacade } from '../experiences/index.js';
import { usersFacade } from '../users/index.js';
import { toOctoAvailability, type AvailabilityOptions } from './availability.mapping.js';
import { toOctoCalendar } from './calendar.mapping.js';
import type { CapabilityId } from './capabilities.js';
import { startOfAvailabilityId, type Departure, type Product } from './departures.js';
import type { OctoAvailabilityCalendarInput, OctoAvailabilityCheckInput } from './octo.bodies.js';
import { fail } from './octo.errors.js';
import type {
  OctoAvailabilityCalendarDayView,
  OctoAvailabilityView,
  OctoProductView,
  OctoSupplierView,
} from './octo.schemas.js';
import { toOctoProduct, toOctoSupplier } from './product.mapping.js';
import { productFor, productOf } from './products.js';
import { availabilityQueryOf, calendarRangeOf, checkOption, unitsAskedOf } from './requests.js';

export interface OctoServiceDeps {
  db: Db;
  now?: () => Date;
}

/** octo/pricing asked for: prices with the caller's commission; else none. */
export const pricingFor = (reseller: Reseller, capabilities: readonly CapabilityId[]) =>
  capabilities.includes('octo/pricing') ? { pricing: { commission: reseller.commissionBps } } : {};

/** One currency per product: another one asked for is BAD_REQUEST. */
export function checkCurrency(product: Product, currency: string | null | undefined): void {
  if (currency != null && currency !== product.currency)
    fail('BAD_REQUEST', `this product is sold in ${product.currency} only`);
}

export function octoService({ db, now = () => new Date() }: OctoServiceDeps) {
  /** The product a request names and its option, checked in the validator's order. */
  const requested = async (reseller: Reseller, productId: string, optionId: string) => {
    const found = await productFor(db, reseller, productId);
    checkOption(optionId);
    return found;
  };

  /**
   * The product's departures between the local dates, refused past the bound of one
   * request (the API's availability has the same: its events opened by hand count).
   */
  const departuresBetween = async (
    experience: Parameters<typeof eventsFacade.departuresBetween>[1],
    start: string,
    end: string,
  ) => {
    const past = await eventsFacade.departuresPastBound(db, experience, start, end);
    if (past !== undefined)
      fail(
        'BAD_REQUEST',
        `this product departs ${past} times in these dates, and one request answers at most ${MAX_AVAILABILITY_DEPARTURES}: ask for fewer dates`,
      );
    return eventsFacade.departuresBetween(db, experience, start, end);
  };

  return {
    async supplier(reseller: Reseller, endpoint: string): Promise<OctoSupplierView> {
      const seller = await usersFacade.find(db, reseller.sellerId);
      // The credential's seller was read when it authenticated; gone since: as if revoked.
      if (!seller) fail('FORBIDDEN', 'the seller no longer exists');
      return toOctoSupplier({ id: seller.id, name: seller.name }, endpoint);
    },

    async products(reseller: Reseller, capabilities: readonly CapabilityId[]) {
      const experiences = await experiencesFacade.visibleOfSeller(db, reseller.sellerId);
      const options = pricingFor(reseller, capabilities);
      return experiences.map((e) => toOctoProduct(productOf(e), options));
    },

    async product(
      reseller: Reseller,
      id: string,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoProductView> {
      const { product } = await productFor(db, reseller, id);
      return toOctoProduct(product, pricingFor(reseller, capabilities));
    },

    async calendar(
      reseller: Reseller,
      body: OctoAvailabilityCalendarInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoAvailabilityCalendarDayView[]> {
      const { experience, product } = await requested(reseller, body.productId, body.optionId);
      const range = calendarRangeOf(body);
      checkCurrency(product, body.currency);
      const units = unitsAskedOf(product, body.units);
      const departures = await departuresBetween(experience, range.start, range.end);
      return toOctoCalendar(product, departures, range.start, range.end, {
        now: now(),
        ...pricingFor(reseller, capabilities),
        ...(units ? { units } : {}),
      });
    },

    async availability(
      reseller: Reseller,
      body: OctoAvailabilityCheckInput,
      capabilities: readonly CapabilityId[],
    ): Promise<OctoAvailabilityView[]> {
      const { experience, product } = await requested(reseller, body.productId, body.optionId);
      const query = availabilityQueryOf(body);
      checkCurrency(product, body.currency);
      const units = unitsAskedOf(product, body.units);
      let departures: Departure[];
      if ('ids' in query) {
        const starts = query.ids.map(
          (id) => startOfAvailabilityId(product, id) ?? fail('INVALID_AVAILABILITY_ID', id),
        );
        departures = await eventsFacade.departuresAt(db, experience, starts);
        const found = new Set(departures.map((d) => d.start.getTime()));
        const missing = query.ids.find((_, i) => !found.has(starts[i]!.getTime()));
        if (missing !== undefined) fail('INVALID_AVAILABILITY_ID', missing);
      } else {
        departures = await departuresBetween(experience, query.dates.start, query.dates.end);
      }
      const options: AvailabilityOptions = {
        now: now(),
        ...pricingFor(reseller, capabilities),
        ...(units ? { units } : {}),
      };
      return departures.map((d) => toOctoAvailability(product, d, options));
    },
  };
}

export type OctoService = ReturnType<typeof octoService>;
