/**
 * Experiences as OCTo products, sellers as the supplier. A product has one option,
 * `DEFAULT` (our experiences have no variants), whose units are the guest types. Departures
 * are start times (`START_TIME`); tickets are delivered per guest as a QR code and a
 * CODE128 barcode carrying the guest's ticket code, scanned at check-in (`DIGITAL`). Guests
 * may cancel until the departure (cutoff 0), as a reseller may: no contact field is required
 * (resellers send what they have; the confirmation takes what comes).
 */
import { minorDigits, toMinor } from '../../domain/money.js';
import type { ExperienceView } from '../experiences/index.js';
import type { Product } from './departures.js';
import type {
  OctoOptionView,
  OctoProductView,
  OctoSupplierView,
  OctoUnitView,
} from './octo.schemas.js';
import { octoPricing, type CommissionBps } from './pricing.js';
import { unitsOf, type Unit } from './units.js';

export const OPTION_ID = 'DEFAULT';
/** Content is in one language, which no experience records: English, the commonest. */
export const PRODUCT_LOCALE = 'en';

export interface ProductOptions {
  /** octo/pricing asked for: the caller's commission (null: none). Absent: no prices. */
  pricing?: { commission: CommissionBps };
}

/** `HH:MM` of every departure time the experience's available schedules list. */
export function startTimesOf(schedules: ExperienceView['schedules']): string[] {
  const times = new Set<number>();
  for (const s of schedules)
    if (s.type === 'available') for (const t of s.times ?? []) times.add(t);
  return [...times]
    .sort((a, b) => a - b)
    .map(
      (t) => `${String(Math.floor(t / 100)).padStart(2, '0')}:${String(t % 100).padStart(2, '0')}`,
    );
}

function toOctoUnit(product: Product, unit: Unit, options: ProductOptions): OctoUnitView {
  const view: OctoUnitView = {
    id: unit.id,
    internalName: unit.label,
    reference: unit.code,
    type: unit.type,
    // Guest types record no ages or pairing rules: nothing is claimed.
    restrictions: {
      minAge: 0,
      maxAge: 120,
      idRequired: false,
      minQuantity: null,
      maxQuantity: null,
      paxCount: 1,
      accompaniedBy: [],
    },
    requiredContactFields: [],
  };
  if (options.pricing && product.priceType === 'person')
    view.pricingFrom = [octoPricing(unit.price, product.currency, options.pricing.commission)];
  return view;
}

function toOctoOption(product: Product, options: ProductOptions): OctoOptionView {
  const view: OctoOptionView = {
    id: OPTION_ID,
    default: true,
    internalName: product.name,
    reference: null,
    availabilityLocalStartTimes: startTimesOf(product.schedules),
    cancellationCutoff: '0 hours',
    cancellationCutoffAmount: 0,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [],
    restrictions: { minUnits: product.group.orderMin ?? 1, maxUnits: product.group.orderMax },
    units: unitsOf(product).map((unit) => toOctoUnit(product, unit, options)),
  };
  if (options.pricing && product.priceType === 'outing') {
    const price = toMinor(product.price, minorDigits(product.currency));
    view.pricingFrom = [octoPricing(price, product.currency, options.pricing.commission)];
  }
  return view;
}

export function toOctoProduct(product: Product, options: ProductOptions = {}): OctoProductView {
  const view: OctoProductView = {
    id: product.id,
    internalName: product.name,
    reference: null,
    locale: PRODUCT_LOCALE,
    timeZone: product.timezone,
    allowFreesale: product.group.outingMax === null,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: ['QRCODE', 'CODE128'],
    deliveryMethods: ['TICKET'],
    redemptionMethod: 'DIGITAL',
    options: [toOctoOption(product, options)],
  };
  if (options.pricing) {
    view.defaultCurrency = product.currency;
    view.availableCurrencies = [product.currency];
    view.pricingPer = product.priceType === 'outing' ? 'BOOKING' : 'UNIT';
  }
  return view;
}

/** The seller, as far as its public profile goes: no public contact details are recorded. */
export interface SupplierSource {
  id: string;
  name: string;
}

export const toOctoSupplier = (seller: SupplierSource, endpoint: string): OctoSupplierView => ({
  id: seller.id,
  name: seller.name,
  endpoint,
  contact: { website: null, email: null, telephone: null, address: null },
});
