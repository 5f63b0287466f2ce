/**
 * Experiences, departures and orders for the OCTo mapping tests: a boat tour in Paris with
 * adult and child guest types and a weekend price supplement, the same tour without guest
 * types, and an order of one item booked on it.
 */
import type {
  Departure,
  OctoBookingRecord,
  OctoSeat,
  Product,
} from '../../../src/modules/octo/index.js';
import type { OrderView } from '../../../src/modules/orders/index.js';

export const ADULT = 'a1a1a1a1a1a1a1a1a1a1a1a1';
export const CHILD = 'c2c2c2c2c2c2c2c2c2c2c2c2';
export const EXPERIENCE = 'e3e3e3e3e3e3e3e3e3e3e3e3';

export const boatTour = (changes: Partial<Product> = {}): Product => ({
  id: EXPERIENCE,
  name: 'Seine by boat',
  timezone: 'Europe/Paris',
  duration: 90,
  price: 25,
  priceType: 'person',
  currency: 'EUR',
  demographics: [
    { id: ADULT, label: 'Adult', code: 'adult', price: 25 },
    { id: CHILD, label: 'Child (4-11)', code: 'kid', price: 12.5 },
  ],
  schedules: [
    {
      id: 's1s1s1s1s1s1s1s1s1s1s1s1',
      type: 'available',
      repeat: 'weekly',
      days: [0, 1, 2, 3, 4, 5, 6],
      times: [900, 1400],
    },
    // Weekends cost 2.50 more a seat.
    {
      id: 's2s2s2s2s2s2s2s2s2s2s2s2',
      type: 'available',
      repeat: 'weekly',
      days: [0, 6],
      times: [1730],
      priceDelta: 2.5,
    },
  ],
  group: { orderMin: 1, orderMax: 10, outingMax: 12 },
  ...changes,
});

/** 9:00 in Paris on a date (summer time, +02:00). */
export const parisSummer = (date: string, hhmm = '09:00') => new Date(`${date}T${hhmm}:00+02:00`);

export const departure = (start: Date, seats: Partial<Departure> = {}): Departure => ({
  start,
  capacity: 12,
  reserved: 0,
  closed: false,
  ...seats,
});

export const NOW = new Date('2030-05-01T10:00:00Z');

export function orderOf(changes: {
  status?: number;
  holdExpiresAt?: string | null;
  seats?: { demographicId: string; price: number }[];
  start?: Date;
}): OrderView {
  const seats = changes.seats ?? [
    { demographicId: ADULT, price: 25 },
    { demographicId: ADULT, price: 25 },
    { demographicId: CHILD, price: 12.5 },
  ];
  const lines = [ADULT, CHILD]
    .map((id) => ({ id, list: seats.filter((s) => s.demographicId === id) }))
    .filter((l) => l.list.length > 0)
    .map(({ id, list }) => ({
      demographic: { id },
      label: id === ADULT ? 'Adult' : 'Child (4-11)',
      code: id === ADULT ? 'adult' : 'kid',
      quantity: list.length,
      price: list[0]!.price,
      amount: list[0]!.price * list.length,
    }));
  const amount = seats.reduce((sum, s) => sum + s.price, 0);
  return {
    object: 'order',
    id: '0d0d0d0d0d0d0d0d0d0d0d0d',
    seller: { id: '5e5e5e5e5e5e5e5e5e5e5e5e' },
    customer: null,
    customerName: 'Pat Guest',
    customerEmail: 'pat@example.com',
    phone: null,
    source: 'Klook',
    status: changes.status === 700 ? 'canceled' : 'confirmed',
    shortCode: 'K7QM2XPA',
    arrival: '2030-06-01',
    amount,
    currency: 'EUR',
    payment: null,
    notes: [],
    adjustments: [],
    holdExpiresAt: changes.holdExpiresAt === undefined ? null : changes.holdExpiresAt,
    items: [
      {
        id: '1f1f1f1f1f1f1f1f1f1f1f1f',
        experience: { id: EXPERIENCE },
        event: { id: '2a2a2a2a2a2a2a2a2a2a2a2a' },
        name: 'Seine by boat',
        arrival: '2030-06-01',
        arrivalTime: 900,
        arrivalDatetime: '2030-06-01T09:00:00+02:00',
        quantity: seats.length,
        demographics: lines,
        lineItems: [],
        price: 25,
        amount,
        shortCode: 'K7QM2XPA',
        status: changes.status ?? 200,
        ticketCode: '65a1b2c3d4e5f60718293a4b5c6d7e8f',
        guests: [],
        guestStatus: 'pending',
      },
    ],
    createdAt: '2030-04-30T08:00:00.123Z',
    updatedAt: '2030-04-30T08:05:00.456Z',
  };
}

export const record = (changes: Partial<OctoBookingRecord> = {}): OctoBookingRecord => ({
  uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  resellerReference: 'KLOOK-4711',
  contact: null,
  confirmedAt: null,
  cancellation: null,
  ...changes,
});

export const seatsOf = (demographics: string[], checkedIn: (Date | null)[] = []): OctoSeat[] =>
  demographics.map((demographicId, i) => ({
    id: `${String(i).padStart(2, '0')}`.repeat(12),
    uuid: `00000000-0000-4000-8000-00000000000${i}`,
    resellerReference: null,
    demographicId,
    ticketCode: `${i}`.repeat(32),
    checkedInAt: checkedIn[i] ?? null,
    contact: null,
  }));
