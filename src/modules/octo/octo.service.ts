/**
 * OCTo's reads (docs/octo.md): the supplier (the seller), its products (visible experiences),
 * the availability of a product's departures and its calendar, answered from the same
 * experiences and events as Xola's API. The calendar of a year is two queries: the
 * experience, then its events over the range (a range scan, events facade).
 */
import type { Db } from '../../db/database.js';
import type { Reseller } from '../../domain/caller.js';
import { experiencesFacade } from '../experiences/index.js';
import { usersFacade } from '../users/index.js';
import { pricesPerAvailability, toOctoAvailability } from './availability.mapping.js';
import { toOctoCalendar } from './calendar.mapping.js';
import type { CapabilityId } from './capabilities.js';
import { departureReads } from './departure-reads.js';
import type { Product } from './departures.js';
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
  const departures = departureReads(db);

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
      const ofRange = await departures.between(experience, range.start, range.end);
      return toOctoCalendar(product, ofRange, range.start, range.end, {
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
      const asked = { ...pricingFor(reseller, capabilities), ...(units ? { units } : {}) };
      // At most MAX_AVAILABILITY_IDS ids: within the bound whatever the prices (check-bound.ts).
      const found =
        'ids' in query
          ? await departures.atIds(experience, product, query.ids)
          : await departures.checked(
              experience,
              query.dates,
              pricesPerAvailability(product, asked),
            );
      const options = { now: now(), ...asked };
      return found.map((d) => toOctoAvailability(product, d, options));
    },
  };
}

export type OctoService = ReturnType<typeof octoService>;
