/**
 * Units: an experience's guest types as OCTo sees them. A unit's id is its guest type's id
 * (stable across renames and code changes, and what orders record); an experience without
 * guest types offers one unit, `adult`, at its own price. A unit's OCTo `type` is read from
 * the guest type's code, then its label ("Senior 65+" is SENIOR), OTHER when neither says.
 */
import { toMinor, minorDigits } from '../../domain/money.js';
import type { ExperienceView } from '../experiences/index.js';
import type { UnitType } from './octo.schemas.js';

/** The one unit of an experience without guest types. */
export const DEFAULT_UNIT_ID = 'adult';

export interface Unit {
  id: string;
  /** The guest type booked; null for the default unit (the experience's own price). */
  demographicId: string | null;
  label: string;
  code: string | null;
  type: UnitType;
  /** One seat's price before any departure's priceDelta, in the minor unit. */
  price: bigint;
}

/** Words that name a unit type, first match wins (codes and labels, any case). */
const TYPE_WORDS: readonly [UnitType, readonly string[]][] = [
  ['INFANT', ['infant', 'baby', 'babies', 'toddler']],
  ['CHILD', ['child', 'children', 'kid', 'kids']],
  ['YOUTH', ['youth', 'teen', 'teens', 'teenager', 'junior']],
  ['SENIOR', ['senior', 'seniors', 'elder']],
  ['STUDENT', ['student', 'students']],
  ['MILITARY', ['military', 'veteran', 'veterans']],
  ['FAMILY', ['family', 'families']],
  ['ADULT', ['adult', 'adults', 'grown-up', 'general', 'standard']],
];

function typeIn(text: string): UnitType | undefined {
  const words = new Set(
    text
      .toLowerCase()
      .split(/[^a-z-]+/)
      .filter(Boolean),
  );
  return TYPE_WORDS.find(([, names]) => names.some((name) => words.has(name)))?.[0];
}

/** The OCTo type of a guest type: from its code, else its label, else OTHER. */
export const unitTypeOf = (code: string, label: string): UnitType =>
  typeIn(code.replace(/[_-]/g, ' ')) ?? typeIn(label) ?? 'OTHER';

/** The units of an experience, in its guest types' order. */
export function unitsOf(
  experience: Pick<ExperienceView, 'price' | 'currency' | 'demographics'>,
): Unit[] {
  const digits = minorDigits(experience.currency);
  if (experience.demographics.length === 0) {
    return [
      {
        id: DEFAULT_UNIT_ID,
        demographicId: null,
        label: 'Adult',
        code: null,
        type: 'ADULT',
        price: toMinor(experience.price, digits),
      },
    ];
  }
  return experience.demographics.map((d) => ({
    id: d.id,
    demographicId: d.id,
    label: d.label,
    code: d.code,
    type: unitTypeOf(d.code, d.label),
    price: toMinor(d.price, digits),
  }));
}

/** The unit id a booked seat shows: its guest type's, or the default unit's. */
export const unitIdOf = (demographicId: string | null): string => demographicId ?? DEFAULT_UNIT_ID;
