/**
 * The rules of moving seats and changing an order, as pure functions: which seats items
 * hold, the per-event seat deltas a change makes, which item ids a change may name, whether
 * a customer may still change its order (no departure started, no guest of it on board),
 * and the 409 of a departure without room. The
 * orders service runs them inside its transactions.
 */
import { DomainError, invalid } from '../../domain/errors.js';
import type { SeatDelta } from '../events/index.js';
import { ref } from '../shared/index.js';
import type { GuestRow } from './guests.js';
import { holdsSeats } from './item-status.js';
import type { OrderItemRow } from './orders.schemas.js';

/** The seats items hold, as `[eventId, quantity]`: only items whose status holds seats. */
export const seatsHeld = (
  items: readonly { event_id: string; quantity: number; status: number }[],
) => items.filter((i) => holdsSeats(i.status)).map((i) => [i.event_id, i.quantity] as const);

/** Adds `sign` x each held quantity to the event's delta (made when missing). */
export function addSeats(
  deltas: Map<string, SeatDelta>,
  held: readonly (readonly [string, number])[],
  sign: 1 | -1,
): Map<string, SeatDelta> {
  for (const [eventId, quantity] of held) {
    const entry = deltas.get(eventId) ?? { delta: 0, item: 0 };
    entry.delta += sign * quantity;
    deltas.set(eventId, entry);
  }
  return deltas;
}

/** A customer changes its own order only while none of its departures has started. */
export function customerMayChange(items: readonly OrderItemRow[], now: Date): void {
  const started = items.find(
    (i) => holdsSeats(i.status) && i.arrival_datetime.getTime() <= now.getTime(),
  );
  if (started) {
    throw new DomainError(
      'departure_started',
      'A departure of this order has started: ask the seller to change it.',
    );
  }
}

/**
 * 409 guest_checked_in when one of `guests` of the items `itemIds` has arrived: a customer
 * neither cancels nor changes (moves, resizes, re-types, drops) an item whose guests are on
 * board, since its seats would be given back and resold under them; the seller decides.
 */
export function customerKeepsCheckedIn(
  guests: readonly GuestRow[],
  itemIds: ReadonlySet<string>,
): void {
  const arrived = guests.find((g) => g.status === 'arrived' && itemIds.has(g.item_id));
  if (arrived)
    throw new DomainError(
      'guest_checked_in',
      'A guest of this booking has checked in: ask the seller to change or cancel it.',
      { guest: ref(arrived.id), item: ref(arrived.item_id) },
    );
}

/** The ids a change names must be live items of this order, each once: the items by id. */
export function checkItemIds(
  before: readonly OrderItemRow[],
  inputs: readonly { id?: string }[],
): Map<string, OrderItemRow> {
  const existing = new Map(before.map((i) => [i.id, i]));
  const seen = new Set<string>();
  for (const [index, input] of inputs.entries()) {
    if (input.id === undefined) continue;
    const item = existing.get(input.id);
    const name = `items.${index}.id`;
    if (!item) throw invalid('body', name, 'is not an item of this order');
    if (seen.has(input.id)) throw invalid('body', name, 'is listed twice');
    seen.add(input.id);
    if (!holdsSeats(item.status))
      throw new DomainError('item_canceled', `Item ${input.id} is canceled.`, {
        errors: [{ in: 'body', name, detail: 'is canceled and cannot be changed' }],
      });
  }
  return existing;
}

/** Where an item entry of a change says which departure it is on. */
const PLACE = ['experience', 'arrival', 'arrivalTime'] as const;
export type Place = {
  experience: { id: string };
  arrival: string;
  arrivalTime: number;
};

/**
 * Item entries of a change made whole: fields an entry that names an item (`id`) leaves out
 * stay as they are, as they do for the order (`{id, quantity: 3}` resizes the item where it
 * is). A new item (no id, or an id that names no item: checkItemIds refuses it next) must
 * say where it goes.
 */
export function completeItemInputs<T extends { id?: string } & Partial<Place>>(
  before: readonly OrderItemRow[],
  inputs: readonly T[],
): (T & Place)[] {
  const byId = new Map(before.map((i) => [i.id, i]));
  return inputs.map((input, index) => {
    const current = input.id === undefined ? undefined : byId.get(input.id);
    const place: Place | undefined = current && {
      experience: { id: current.experience_id },
      arrival: current.arrival,
      arrivalTime: current.arrival_time,
    };
    for (const field of PLACE) {
      if (input[field] === undefined && !place)
        throw invalid('body', `items.${index}.${field}`, 'is required');
    }
    return { ...place, ...definedOnly(input) } as T & Place;
  });
}

const definedOnly = <T extends object>(input: T): T =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;

type Line = { demographic: { id: string }; quantity: number };

/** Same guest types and quantities, in any order (lines of 0 seats count as absent). */
export function sameLines(stored: readonly Line[], given: readonly Line[]): boolean {
  const key = (lines: readonly Line[]) =>
    lines
      .filter((l) => l.quantity > 0)
      .map((l) => `${l.demographic.id}:${l.quantity}`)
      .sort()
      .join(',');
  return key(stored) === key(given);
}
