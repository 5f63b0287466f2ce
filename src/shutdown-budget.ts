/**
 * How long a stop may take before the process gives up (server.ts): the drain, then the
 * close. What a stop does, in order:
 *
 * - On SIGTERM, every worker stops claiming at once (http/worker-lifecycle.ts): what is in
 *   flight from then on was claimed before, and ends within its own timeout of its claim,
 *   its outcome recorded: a webhook delivery within WEBHOOK_TIMEOUT_MS, an email within
 *   OUTBOX_SEND_TIMEOUT_MS (the mail dispatcher, with a relay configured). It goes on
 *   through the drain.
 * - The drain (SHUTDOWN_DRAIN_MS) serves requests, but claims nothing more.
 * - The close stops accepting, waits for requests in flight for REQUESTS_GRACE_MS at most
 *   and then closes the connections still open (a trickled body cannot hold it); then it
 *   waits for all the workers together, then the modules and the database close.
 *
 * So the close takes the grace and its own endings, CLOSE_MIN_MS at most; the workers' work
 * ends within the longest timeout plus its recording (CLOSE_MARGIN_MS) of SIGTERM, which
 * is before the close starts. The drain plus the longer of the two bounds the stop (the
 * workers' term with the drain to spare). Workers that claimed through the drain and the
 * close, stopped one after another, exited 1 past this with deliveries and emails claimed
 * and no outcome, sent twice after the restart. systemd's TimeoutStopSec must be longer
 * than this (docs/operations.md, deploy/booking.service).
 */
import type { Config } from './config.js';

/** How long the close waits for requests in flight before closing their connections. */
export const REQUESTS_GRACE_MS = 5_000;
/** What the close may take at least: the grace, then what it closes (modules, database). */
export const CLOSE_MIN_MS = 10_000;
/** Beyond a worker's timeout: recording the outcome of what it sent. */
export const CLOSE_MARGIN_MS = 5_000;

export function shutdownBudgetMs(config: Config): number {
  const mailMs = config.smtpUrl ? config.outbox.sendTimeoutMs : 0;
  const close = Math.max(
    CLOSE_MIN_MS,
    Math.max(config.webhooks.timeoutMs, mailMs) + CLOSE_MARGIN_MS,
  );
  return config.shutdownDrainMs + close;
}
