/**
 * When an experience departs, from its schedules (pure functions): the departures of a
 * local date are the times of every available schedule that applies that day, minus those
 * an unavailable schedule removes (its listed times, or the whole day when it lists none).
 * An experience with no available schedule never departs. `blackout` is `unavailable`.
 */
import { appliesOn, isClosing, type ScheduleInput } from './schedule.rules.js';

export function departuresOn(schedules: readonly ScheduleInput[], date: string): number[] {
  const times = new Set<number>();
  for (const s of schedules) {
    if (s.type === 'available' && appliesOn(s, date)) for (const t of s.times ?? []) times.add(t);
  }
  for (const s of schedules) {
    if (!isClosing(s) || !appliesOn(s, date)) continue;
    if (!s.times || s.times.length === 0) return [];
    for (const t of s.times) times.delete(t);
  }
  return [...times].sort((a, b) => a - b);
}

/**
 * What a departure costs on top of the price: the `priceDelta` of the first available
 * schedule (in the experience's order) that adds it that day; 0 when none sets one.
 */
export function priceDeltaOf(
  schedules: readonly ScheduleInput[],
  date: string,
  time: number,
): number {
  const adding = schedules.find(
    (s) => s.type === 'available' && appliesOn(s, date) && (s.times ?? []).includes(time),
  );
  return adding?.priceDelta ?? 0;
}

export function isScheduled(
  schedules: readonly ScheduleInput[],
  date: string,
  time: number,
): boolean {
  return departuresOn(schedules, date).includes(time);
}

/**
 * `930` -> `"930"`: availability answers key departures by the HHMM integer as Xola does,
 * unpadded (DESIGN.md; clients look up `"900"`). Integer-like keys also keep JSON objects
 * in time order.
 */
export const hhmmKey = (time: number): string => String(time);
