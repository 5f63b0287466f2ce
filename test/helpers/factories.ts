/**
 * Rows for list tests, inserted straight through Kysely (the write endpoints have rules of
 * their own; these tests are about reading). Every factory returns the API object the row
 * should read back as, so tests can compare against `evaluate`.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { apiKeyDigest, generateApiKey } from '../../src/security/api-keys.js';

let emailSequence = 0;

/**
 * Ids in the order the factories are called. An id holds its creation second and 64 random
 * bits, so ids of one second have no order among themselves; tests that rely on "newest
 * first" among the rows they insert get each row a second of its own (counting up from a
 * day ago, so rows made through the API afterwards are newer still).
 */
let clock = Math.floor(Date.now() / 1000) - 86_400;
export const orderedId = (): string => newId(clock++ * 1000);

/** A bare user row (no usable password or key): an owner for test data. */
export async function insertUser(
  db: Db,
  fields: { roles?: string[]; name?: string } = {},
): Promise<string> {
  const id = orderedId();
  await db
    .insertInto('users')
    .values({
      id,
      name: fields.name ?? 'Factory User',
      email: `factory.${process.pid}.${++emailSequence}.${id}@example.com`,
      password_hash: 'scrypt$1$1$1$AA==$AA==',
      roles: fields.roles ?? ['ROLE_SELLER'],
      api_key_digest: apiKeyDigest(generateApiKey()),
      api_key_ciphertext: Buffer.alloc(1),
      api_version: '2017-01-01',
    })
    .execute();
  return id;
}

export interface ExperienceFields {
  id?: string;
  sellerId: string;
  name?: string;
  price?: number;
  priceType?: 'person' | 'outing';
  currency?: string;
  duration?: number;
  timezone?: string;
  visible?: boolean;
  outingMax?: number | null;
  createdAt?: Date;
}

export async function insertExperience(db: Db, f: ExperienceFields): Promise<string> {
  const id = f.id ?? orderedId();
  await db
    .insertInto('experiences')
    .values({
      id,
      seller_id: f.sellerId,
      name: f.name ?? 'Sunset Kayak Tour',
      price: f.price ?? 50,
      price_type: f.priceType ?? 'person',
      currency: f.currency ?? 'USD',
      duration: f.duration ?? 120,
      timezone: f.timezone ?? 'UTC',
      outing_max: f.outingMax === undefined ? 10 : f.outingMax,
      order_min: null,
      order_max: null,
      schedules: '[]',
      visible: f.visible ?? true,
      guide: null,
      ...(f.createdAt ? { created_at: f.createdAt, updated_at: f.createdAt } : {}),
    })
    .execute();
  return id;
}

export interface EventFields {
  id?: string;
  experienceId: string;
  sellerId: string;
  start: Date;
  durationMinutes?: number;
  max?: number | null;
  reserved?: number;
  guideIds?: string[];
  /** Acknowledgement per guide id (missing: confirmed). */
  guideStatuses?: Record<string, 'pending' | 'confirmed' | 'declined'>;
  manual?: boolean | null;
  createdAt?: Date;
}

export async function insertEvent(db: Db, f: EventFields): Promise<string> {
  const id = f.id ?? orderedId();
  await db
    .insertInto('events')
    .values({
      id,
      experience_id: f.experienceId,
      seller_id: f.sellerId,
      starts_at: f.start,
      ends_at: new Date(f.start.getTime() + (f.durationMinutes ?? 120) * 60_000),
      max: f.max === undefined ? 10 : f.max,
      reserved: f.reserved ?? 0,
      guide_ids: f.guideIds ?? [],
      guide_statuses: JSON.stringify(f.guideStatuses ?? {}),
      manual: f.manual ?? null,
      ...(f.createdAt ? { created_at: f.createdAt, updated_at: f.createdAt } : {}),
    })
    .execute();
  return id;
}

export interface ItemFields {
  experienceId: string;
  eventId: string;
  name?: string;
  arrival: string;
  arrivalTime?: number;
  quantity?: number;
  price?: number;
  status?: 200 | 700;
}

export interface OrderFields {
  id?: string;
  sellerId: string;
  customerId?: string | null;
  customerName?: string;
  customerEmail?: string | null;
  status?: 'confirmed' | 'canceled';
  currency?: string;
  createdAt?: Date;
  updatedAt?: Date;
  items: ItemFields[];
}

/** Inserts an order and its items; `arrival` and `amount` are derived as the service does. */
export async function insertOrder(db: Db, f: OrderFields): Promise<string> {
  const id = f.id ?? orderedId();
  const items = f.items.map((item, position) => {
    const quantity = item.quantity ?? 1;
    const price = item.price ?? 50;
    const time = item.arrivalTime ?? 900;
    const hh = String(Math.floor(time / 100)).padStart(2, '0');
    const mm = String(time % 100).padStart(2, '0');
    return {
      id: orderedId(),
      order_id: id,
      seller_id: f.sellerId,
      customer_id: f.customerId ?? null,
      experience_id: item.experienceId,
      event_id: item.eventId,
      name: item.name ?? 'Sunset Kayak Tour',
      arrival: item.arrival,
      arrival_time: time,
      arrival_datetime: new Date(`${item.arrival}T${hh}:${mm}:00Z`),
      timezone: 'UTC',
      quantity,
      price,
      amount: price * quantity,
      status: item.status ?? 200,
      ticket_code: randomBytes(16).toString('hex'),
      position,
    };
  });
  const arrival = items.map((i) => i.arrival).sort()[0]!;
  const amount = items.reduce((sum, i) => sum + (i.status === 200 ? i.amount : 0), 0);
  await db
    .insertInto('orders')
    .values({
      id,
      seller_id: f.sellerId,
      customer_id: f.customerId ?? null,
      customer_name: f.customerName ?? 'Jane Doe',
      customer_email: f.customerEmail === undefined ? 'jane@example.com' : f.customerEmail,
      status: f.status ?? 'confirmed',
      arrival,
      amount: Math.round(amount * 100) / 100,
      currency: f.currency ?? 'USD',
      short_code: `T${randomBytes(5).toString('hex').toUpperCase()}`,
      ...(f.createdAt ? { created_at: f.createdAt } : {}),
      ...((f.updatedAt ?? f.createdAt) ? { updated_at: f.updatedAt ?? f.createdAt } : {}),
    })
    .execute();
  if (items.length > 0) await db.insertInto('order_items').values(items).execute();
  return id;
}
