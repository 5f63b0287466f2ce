/**
 * Metrics: the process's Prometheus instruments (instruments.ts). What other code imports
 * from metrics/; it imports nothing of the service, so any layer may count.
 */
export {
  bookingOrders,
  confirmationsWithheld,
  holdsExpired,
  httpRequestDuration,
  mailDeliveries,
  processRegistry,
  retentionPruned,
  seatsReleased,
  seatsTaken,
  webhookDeliveries,
  webhookLag,
} from './instruments.js';
