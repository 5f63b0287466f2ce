/**
 * The products a reseller may see: its seller's visible experiences, nothing else. An
 * unknown, hidden or other seller's experience is INVALID_PRODUCT_ID, never a hint that it
 * exists; so is a malformed id (it reaches the lookup and misses).
 */
import type { Executor } from '../../db/unit-of-work.js';
import type { Reseller } from '../../domain/caller.js';
import { experiencesFacade, type BookableExperience } from '../experiences/index.js';
import type { Product } from './departures.js';
import { fail } from './octo.errors.js';

/** What the mapping reads of an experience (its guest types at their effective prices). */
export const productOf = (experience: BookableExperience): Product => ({
  id: experience.id,
  name: experience.name,
  timezone: experience.timezone,
  duration: experience.duration,
  price: experience.price,
  priceType: experience.priceType,
  currency: experience.currency,
  demographics: experience.demographics.map((d) => ({
    id: d.id,
    label: d.label,
    code: d.code,
    price: d.price ?? experience.price,
  })),
  schedules: experience.schedules,
  group: {
    orderMin: experience.orderMin,
    orderMax: experience.orderMax,
    outingMax: experience.outingMax,
  },
});

const ID = /^[0-9a-f]{24}$/;

/** The reseller's product `id`, as the experience and its OCTo product; else INVALID_PRODUCT_ID. */
export async function productFor(
  db: Executor,
  reseller: Reseller,
  id: string,
): Promise<{ experience: BookableExperience; product: Product }> {
  const experience = ID.test(id) ? await experiencesFacade.find(db, id) : undefined;
  if (!experience || !experience.visible || experience.sellerId !== reseller.sellerId)
    fail('INVALID_PRODUCT_ID', id);
  return { experience, product: productOf(experience) };
}
