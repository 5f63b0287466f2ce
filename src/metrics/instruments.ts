/**
 * The service's Prometheus instruments (prom-client), one set per process: what operators
 * watch (docs/operations.md, "Metrics"). Counters are incremented only for what happened
 * for good: seat movements and bookings after their transaction committed (`afterCommit`),
 * never for work a rollback undid. The process's default metrics (resident memory, event
 * loop lag, GC, file descriptors) are collected into the same registry.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestDurations } from './request-durations.js';

export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

/** Every request's: its own histogram (request-durations.ts says why not prom-client's). */
export const httpRequestDuration = new RequestDurations(
  'http_request_duration_seconds',
  'Time to answer a request, by method, route pattern and status',
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);
processRegistry.registerMetric(httpRequestDuration.asMetric());

export const bookingOrders = new Counter({
  name: 'booking_orders_total',
  help: 'Bookings (POST /api/orders, the checkout, OCTo) by result: booked, or the refusal code',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

export const seatsTaken = new Counter({
  name: 'booking_seats_taken_total',
  help: 'Seats taken on departures (bookings, order changes), once committed',
  registers: [processRegistry],
});

export const seatsReleased = new Counter({
  name: 'booking_seats_released_total',
  help: 'Seats given back (cancellations, changes, expired holds), once committed',
  registers: [processRegistry],
});

export const holdsExpired = new Counter({
  name: 'booking_holds_expired_total',
  help: 'Orders whose unconfirmed holds (item status 103) the sweeper released',
  registers: [processRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts by result: delivered, failed (retried later), gave_up',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

/**
 * What became of each email attempt. `gave_up` is the one to alert on: `outbox_pending` and
 * `outbox_oldest_seconds` count waiting mail only, so they fall back to 0 exactly when mail
 * is abandoned (`cli outbox` lists it, `cli outbox retry` queues it again).
 */
export const mailDeliveries = new Counter({
  name: 'mail_deliveries_total',
  help: 'Email attempts by result: sent, failed (retried later), gave_up (marked failed: cli outbox), skipped (no longer due)',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});
// Every series from 0: `increase()` misses a series whose first sample is already 1, such as
// the first email given up after a restart.
for (const result of ['sent', 'failed', 'gave_up', 'skipped']) mailDeliveries.inc({ result }, 0);

/**
 * Confirmations not queued because a relay cap held them (docs/booking.md, "Not a relay"):
 * `customer_hourly`, `guest_address`, `seller_daily`. The booking stood without its email;
 * a rise of `seller_daily` is a seller mailing strangers, or one outgrowing the default
 * (the log names the seller).
 */
export const confirmationsWithheld = new Counter({
  name: 'mail_confirmations_withheld_total',
  help: 'Confirmation emails not sent because a relay cap held them, by cap: customer_hourly, guest_address, seller_daily',
  labelNames: ['cap'] as const,
  registers: [processRegistry],
});
for (const cap of ['customer_hourly', 'guest_address', 'seller_daily'])
  confirmationsWithheld.inc({ cap }, 0);

/** What the retention sweep deleted (src/retention.ts): settled work past RETENTION_DAYS. */
export const retentionPruned = new Counter({
  name: 'retention_pruned_rows_total',
  help: 'Rows the retention sweep deleted, by table: idempotency_keys, outbox, webhook_deliveries, domain_events',
  labelNames: ['table'] as const,
  registers: [processRegistry],
});

export const webhookLag = new Histogram({
  name: 'webhook_delivery_lag_seconds',
  help: 'From the domain event to its successful delivery',
  buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
  registers: [processRegistry],
});
