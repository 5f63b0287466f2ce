/**
 * The rules an experience must satisfy beyond its schema, as pure functions: a real ISO
 * 4217 currency, a real IANA time zone, money in cents, a coherent group size, and
 * well-formed schedules.
 */
import type { FieldError } from '../../domain/errors.js';
import { isTimeZone } from '../schedules/index.js';
import { scheduleErrors, type ScheduleInput } from '../schedules/index.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export interface ExperienceDraft {
  price: number;
  currency: string;
  timezone: string;
  orderMin: number | null;
  orderMax: number | null;
  schedules: ScheduleInput[];
}

export function experienceErrors(draft: ExperienceDraft): FieldError[] {
  const errors: FieldError[] = [];
  const add = (name: string, detail: string) => errors.push({ in: 'body', name, detail });
  if (!CURRENCIES.has(draft.currency))
    add('currency', 'must be an ISO 4217 currency code such as USD or EUR');
  if (!isTimeZone(draft.timezone))
    add('timezone', 'must be an IANA time zone such as Europe/Paris or UTC');
  if (Math.abs(Math.round(draft.price * 100) - draft.price * 100) > 1e-6)
    add('price', 'must have at most two decimals');
  if (draft.orderMin !== null && draft.orderMax !== null && draft.orderMin > draft.orderMax) {
    add('group.orderMin', 'must not exceed group.orderMax');
  }
  draft.schedules.forEach((schedule, i) =>
    errors.push(...scheduleErrors(schedule, `schedules.${i}.`, 'experience')),
  );
  return errors;
}
