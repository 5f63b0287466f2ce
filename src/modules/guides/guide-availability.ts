/**
 * The availability rule of guides, as pure functions: whether a guide's schedules let it
 * take an event, and if not, why. The rule works in the event's local wall-clock time (the
 * time zone of its experience), because that is the clock guides write their hours in:
 *
 * - every local minute of the event must lie in an `available` schedule that applies on
 *   that local date, inside one of its time ranges or all day when it lists none; the
 *   ranges of all available schedules of a date are joined, so back-to-back blocks
 *   (09:00-12:00 and 12:00-15:00) cover an event across their seam, and different dates
 *   of an event may be covered by different schedules;
 * - no `unavailable` (or `blackout`) schedule that applies on a date the event touches may share a minute
 *   with it (touching at an edge is no overlap); one that lists no ranges takes the day;
 * - a guide with no schedule, or with no available one, is not available.
 *
 * Time ranges are half-open `[startTime, endTime)` in HHMM; `endTime` 2400 is midnight at
 * the end of the day, so a guide can work until midnight and, with an early-morning range
 * on the next date, through the night. Zero-length events (start = end) are an instant:
 * covered when it lies inside a range (its start included, its end not), blocked when it
 * lies inside an unavailable range. On daylight-saving days the rule reads the minutes the
 * wall clock really shows: the hour skipped in spring needs no cover and cannot block, the
 * hour lived twice in autumn counts as the event lived it (`localSegments` gives the
 * per-date span from the earliest to the latest of those minutes). Well-formedness of
 * schedules is `scheduleErrors`' job; an empty or inverted range here simply covers nothing.
 */
import { IANAZone } from 'luxon';
import {
  addDays,
  appliesOn,
  hhmmToMinutes,
  isClosing,
  type ScheduleInput,
} from '../schedules/index.js';

/** An event's instants, and the IANA zone of its experience. */
export interface EventInterval {
  start: Date;
  end: Date;
  timezone: string;
}

/** Wall-clock minutes of one local date: `to` may be 1440, the midnight ending the date. */
type Segment = { date: string; from: number; to: number };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAY_MINUTES = 1440;
/**
 * Offsets are probed this far apart when looking for daylight-saving changes inside an
 * event. Only two changes cancelling out within one step would go unseen; changes come
 * months apart in practice (each change found restarts the probe, so close changes that do
 * not cancel are all found).
 */
const PROBE_MS = 6 * 3_600_000;

/**
 * The local wall-clock segments of an event, one per local date it touches, in order:
 * `{date: 'YYYY-MM-DD', from, to}` in minutes of that date, with `to` up to 1440.
 *
 * An event ending exactly at local midnight ends at 1440 of its last date rather than
 * opening an empty segment on the next one; a zero-length event is one point (`from` =
 * `to`). Seconds widen the segment to whole minutes (`from` rounds down, `to` up), which
 * changes no answer since schedules are in whole minutes. On a daylight-saving day the
 * segment runs from the earliest wall-clock time the event shows to the latest: in Paris on
 * 2019-03-31, 01:30 (+01:00) plus 90 minutes is 90..240, the skipped hour inside; on
 * 2019-10-27, 01:30 (+02:00) to 02:30 (+01:00) is 90..180, since the event went through
 * 02:59 (+02:00) before the clocks went back. Throws a RangeError for an unknown zone, an
 * invalid date, or an end before the start.
 */
export function localSegments(event: EventInterval): { date: string; from: number; to: number }[] {
  const hull = new Map<string, Segment>();
  for (const piece of wallPieces(event)) {
    const seen = hull.get(piece.date);
    if (seen) {
      seen.from = Math.min(seen.from, piece.from);
      seen.to = Math.max(seen.to, piece.to);
    } else {
      hull.set(piece.date, { ...piece });
    }
  }
  // Pieces are in time order, so dates already are; the sort keeps that promise explicit.
  return [...hull.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Why the guide cannot take the event, or undefined when it can. */
export function unavailability(
  schedules: readonly ScheduleInput[],
  event: EventInterval,
): string | undefined {
  const pieces = wallPieces(event);
  if (schedules.length === 0) return 'the guide has no schedule';
  if (!schedules.some((s) => s.type === 'available')) return 'the guide has no available schedule';
  // The exact wall-clock pieces, not the per-date hulls of localSegments: across a
  // spring-forward gap a guide working 01:00-02:00 and 03:00-04:00 has the whole event.
  for (const piece of pieces) {
    const blocker = schedules.find(
      (s) => isClosing(s) && appliesOn(s, piece.date) && blocks(s, piece),
    );
    if (blocker) {
      return `${describe(blocker)} overlaps the event on ${span(piece, event.timezone)}`;
    }
    if (!isCovered(availableStretches(schedules, piece.date), piece)) {
      return `no available schedule covers the event on ${span(piece, event.timezone)}`;
    }
  }
  return undefined;
}

export function isGuideAvailable(
  schedules: readonly ScheduleInput[],
  event: EventInterval,
): boolean {
  return unavailability(schedules, event) === undefined;
}

/**
 * The wall-clock pieces of an event in time order: it is cut where the zone's offset
 * changes (the wall clock jumps there) and at each local midnight. A fall-back day can
 * hold two pieces of the same date that overlap in wall-clock time.
 */
function wallPieces(event: EventInterval): Segment[] {
  const zone = IANAZone.create(event.timezone);
  if (!zone.isValid) throw new RangeError(`unknown time zone: ${event.timezone}`);
  const start = event.start.getTime();
  const end = event.end.getTime();
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError('invalid event date');
  if (end < start) throw new RangeError('the event ends before it starts');

  const pieces: Segment[] = [];
  for (const run of constantOffsetRuns(zone, start, end)) {
    // The wall clock of a run is its instants shifted by its offset; its end keeps the
    // run's offset (the clock just before it), so an event ending at the very instant of
    // a change ends at the wall-clock time it showed, not the one after the jump.
    const wallFrom = run.from + run.offset * MINUTE_MS;
    const wallTo = run.to + run.offset * MINUTE_MS;
    const firstDay = Math.floor(wallFrom / DAY_MS);
    // Ending exactly at midnight closes the previous date at 1440 (no empty segment).
    const lastDay = wallTo > wallFrom ? Math.ceil(wallTo / DAY_MS) - 1 : firstDay;
    for (let day = firstDay; day <= lastDay; day++) {
      const base = day * DAY_MS;
      pieces.push({
        date: addDays('1970-01-01', day),
        from: Math.floor((Math.max(wallFrom, base) - base) / MINUTE_MS),
        to: Math.ceil((Math.min(wallTo, base + DAY_MS) - base) / MINUTE_MS),
      });
    }
  }
  return pieces;
}

/**
 * The event's instants cut into runs of one UTC offset (minutes). A positive-length event
 * gives positive-length runs only: the offset at its end instant belongs to the moment
 * after it and is never read.
 */
function constantOffsetRuns(
  zone: IANAZone,
  start: number,
  end: number,
): { from: number; to: number; offset: number }[] {
  const runs: { from: number; to: number; offset: number }[] = [];
  const last = end > start ? end - 1 : start;
  let from = start;
  let offset = zone.offset(start);
  let probe = start; // invariant: zone.offset(probe) === offset
  while (probe < last) {
    const next = Math.min(probe + PROBE_MS, last);
    if (zone.offset(next) === offset) {
      probe = next;
      continue;
    }
    // Binary search for the first millisecond of the new offset.
    let lo = probe;
    let hi = next;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === offset) lo = mid;
      else hi = mid;
    }
    runs.push({ from, to: hi, offset });
    from = hi;
    offset = zone.offset(hi);
    probe = hi;
  }
  runs.push({ from, to: end, offset });
  return runs;
}

/**
 * The minutes of a date the guide's available schedules cover, as sorted disjoint
 * stretches `[from, to)`. Ranges that overlap or touch are joined: a guide working two
 * blocks back to back is there across the seam.
 */
function availableStretches(schedules: readonly ScheduleInput[], date: string): number[][] {
  const ranges: number[][] = [];
  for (const s of schedules) {
    if (s.type !== 'available' || !appliesOn(s, date)) continue;
    const own = s.timeRanges ?? [];
    if (own.length === 0) return [[0, DAY_MINUTES]];
    for (const r of own) {
      const from = hhmmToMinutes(r.startTime);
      const to = hhmmToMinutes(r.endTime); // 2400 -> 1440, midnight ending the date
      if (from < to) ranges.push([from, to]);
    }
  }
  ranges.sort((a, b) => a[0]! - b[0]!);
  const stretches: number[][] = [];
  for (const [from, to] of ranges as [number, number][]) {
    const open = stretches[stretches.length - 1];
    if (open && from <= open[1]!) open[1] = Math.max(open[1]!, to);
    else stretches.push([from, to]);
  }
  return stretches;
}

function isCovered(stretches: number[][], piece: Segment): boolean {
  return stretches.some(([from, to]) =>
    piece.from === piece.to
      ? from! <= piece.from && piece.from < to!
      : from! <= piece.from && piece.to <= to!,
  );
}

/** Whether an unavailable schedule applying on the piece's date shares a minute with it. */
function blocks(schedule: ScheduleInput, piece: Segment): boolean {
  const ranges = schedule.timeRanges ?? [];
  if (ranges.length === 0) return true; // the whole day
  return ranges.some((r) => {
    const from = hhmmToMinutes(r.startTime);
    const to = hhmmToMinutes(r.endTime);
    if (from >= to) return false;
    return piece.from === piece.to
      ? from <= piece.from && piece.from < to
      : piece.from < to && from < piece.to;
  });
}

function describe(schedule: ScheduleInput): string {
  const name = schedule.name !== undefined ? ` ${JSON.stringify(schedule.name)}` : '';
  if (schedule.id === undefined)
    return name ? `unavailable schedule${name}` : 'an unavailable schedule';
  return name
    ? `unavailable schedule${name} (${schedule.id})`
    : `unavailable schedule ${schedule.id}`;
}

/** `2019-11-04 09:00-10:30 (Europe/Paris)`, or `2019-11-04 at 09:00 (...)` for an instant. */
function span(piece: Segment, zone: string): string {
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const times =
    piece.from === piece.to ? `at ${clock(piece.from)}` : `${clock(piece.from)}-${clock(piece.to)}`;
  return `${piece.date} ${times} (${zone})`;
}
