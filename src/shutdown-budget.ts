/**
 * How long a stop may take before the process gives up (server.ts): the drain, then the
 * close. The close waits for requests in flight, then for the workers: a webhook delivery in
 * flight waits up to WEBHOOK_TIMEOUT_MS, and an email up to OUTBOX_SEND_TIMEOUT_MS from its
 * claim (the mail dispatcher, with a relay configured), each then recording its outcome. A
 * budget shorter than a send exited 1 with the email claimed and no outcome, and sent it
 * twice once the relay took it. systemd's TimeoutStopSec must be longer than this
 * (docs/operations.md, deploy/booking.service).
 */
import type { Config } from './config.js';

/** What the close may take at least (requests in flight), and beyond a worker's timeout. */
export const CLOSE_MIN_MS = 10_000;
export const CLOSE_MARGIN_MS = 5_000;

export function shutdownBudgetMs(config: Config): number {
  const mailMs = config.smtpUrl ? config.outbox.sendTimeoutMs : 0;
  const close = Math.max(
    CLOSE_MIN_MS,
    Math.max(config.webhooks.timeoutMs, mailMs) + CLOSE_MARGIN_MS,
  );
  return config.shutdownDrainMs + close;
}
