/** The refusal of a departure without room: 409 capacity_exceeded, naming the item asking. */
import { DomainError } from '../../domain/errors.js';

export function capacityExceeded(
  item: number,
  seatsLeft: number,
  asked: number,
  event?: { id: string },
): DomainError {
  return new DomainError(
    'capacity_exceeded',
    `Only ${seatsLeft} seats are left on this departure; ${asked} were asked for.`,
    {
      item,
      ...(event ? { event } : {}),
      seatsLeft,
      errors: [
        { in: 'body', name: `items.${item}.quantity`, detail: `only ${seatsLeft} seats are left` },
      ],
    },
  );
}
