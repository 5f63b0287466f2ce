/**
 * The idempotency module's public surface: Idempotency-Key handling for the POSTs of every
 * other module (a service stored in the database, and the reply helper routes use).
 */
export {
  idempotencyService,
  recordedCreate,
  type IdempotencyService,
  type Outcome,
  type Recorder,
} from './idempotency.service.js';
export {
  idempotencyErrors,
  idempotentCreate,
  idempotentUpdate,
  requestOf,
  sendOutcome,
  type IdempotentOptions,
} from './idempotent-reply.js';
