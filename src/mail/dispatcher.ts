/**
 * The mail dispatcher: polls the outbox, claims due messages (safe across instances: SKIP
 * LOCKED plus a lease, see outbox.repository.ts), sends each over SMTP and records the
 * outcome, retrying with backoff until `maxAttempts`, then marking the message failed.
 *
 * Delivery is at-least-once with one narrow window: if the process dies after the SMTP
 * server accepted a message and before it is marked sent, the message is sent again when
 * its lease runs out. Each message therefore carries a Message-ID derived from its outbox
 * id, the same on every attempt, by which a receiver can discard the duplicate.
 *
 * Logs name the outbox id, the order id and the recipient's domain; never the address, the
 * content, or the SMTP URL (which may carry credentials).
 */
import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { DEFAULT_RETRY_CAP_MS, retryDelay } from './backoff.js';
import type { LoadConfirmation } from './confirmation.loader.js';
import { loadConfirmation as defaultLoader } from './confirmation.sources.js';
import { hooksFacade } from '../modules/hooks/index.js';
import { pollLoop } from '../outbox/index.js';
import { renderConfirmation, type RenderedEmail } from './confirmation.template.js';
import { renderHookDisabled } from './hook-disabled.template.js';
import { composeInvitation } from './invitation.js';
import type { ApiKeyCipher } from '../security/api-keys.js';
import { outboxRepository, type ClaimedMessage } from './outbox.repository.js';

/** The subset of pino (Fastify's logger) the dispatcher uses. */
export interface MailLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DispatcherOptions {
  db: Kysely<DB>;
  /** Reads what an order's confirmation shows (mail/index.ts gives the default). */
  loadConfirmation?: LoadConfirmation;
  smtpUrl: string;
  /** The From header, e.g. `Bookings <bookings@example.com>` (its domain names Message-IDs). */
  from: string;
  logger: MailLogger;
  /** Pause between polls when nothing more is due. */
  pollMs?: number;
  /** First retry delay; doubles per attempt up to `retryCapMs`. */
  retryBaseMs?: number;
  retryCapMs?: number;
  /** Attempts (claims) before a message is marked failed. */
  maxAttempts?: number;
  /** How long a claim is exclusive; a send is aborted well before it runs out. */
  leaseMs?: number;
  /** Messages claimed (and sent concurrently) per poll. */
  batchSize?: number;
  /** Opens the sealed tokens of invitation emails (the server secret's). */
  cipher?: ApiKeyCipher;
}

export interface Dispatcher {
  /** Starts polling; returns at once. */
  start(): void;
  /** Stops polling and resolves once every send in flight has finished and been recorded. */
  stop(): Promise<void>;
  /** Claims and sends one batch of due messages now; resolves to how many were sent. */
  runOnce(): Promise<number>;
}

/** The share of a lease a send may use: the rest is margin to record its outcome. */
const SEND_SHARE_OF_LEASE = 0.8;
const MARK_SENT_TRIES = 3;

/** "user@Example.com" -> "example.com": all a log line may say about a recipient. */
export const recipientDomain = (address: string) =>
  address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Replaces the local part of any address in a text (SMTP replies often quote the recipient). */
const redactAddresses = (text: string) =>
  text.replace(/[^\s<>"'():;,[\]]+@([^\s<>"'():;,[\]]+)/g, '…@$1');

/** The same Message-ID on every attempt of one outbox message. */
export function messageIdFor(outboxId: string, from: string): string {
  const domain = /@([^\s>]+)\s*>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox.${outboxId}@${domain}>`;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
  message?: string;
}

function describeError(error: unknown): { summary: string; details: SmtpError } {
  const e = (error ?? {}) as SmtpError;
  const message = redactAddresses(e.message ?? String(error));
  const details: SmtpError = { message };
  if (typeof e.code === 'string') details.code = e.code;
  if (typeof e.responseCode === 'number') details.responseCode = e.responseCode;
  if (typeof e.command === 'string') details.command = e.command;
  return { summary: [e.code, message].filter(Boolean).join(': '), details };
}

/** A 5xx reply to the envelope (e.g. 550 no such mailbox) will not change on retry. */
const isPermanent = (error: unknown) => {
  const e = error as SmtpError;
  return e?.code === 'EENVELOPE' && typeof e.responseCode === 'number' && e.responseCode >= 500;
};

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const {
    db,
    from,
    logger,
    pollMs = 1000,
    retryBaseMs = 5000,
    retryCapMs = DEFAULT_RETRY_CAP_MS,
    maxAttempts = 10,
    leaseMs = 30_000,
    batchSize = 10,
    loadConfirmation = defaultLoader,
    cipher,
  } = options;
  const repo = outboxRepository(db);
  const sendTimeoutMs = Math.floor(leaseMs * SEND_SHARE_OF_LEASE);
  // One connection per message (no pool): sends of a batch run side by side, and nothing
  // is left open between polls.
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: Math.min(sendTimeoutMs, 10_000),
    greetingTimeout: Math.min(sendTimeoutMs, 10_000),
    socketTimeout: Math.min(sendTimeoutMs, 20_000),
  });

  const inFlight = new Set<Promise<unknown>>();

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  async function markSent(id: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.markSent(id);
        return;
      } catch (error) {
        // Already accepted by SMTP: failing to record it would send it again after the lease.
        if (attempt >= MARK_SENT_TRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  /**
   * The email a message stands for, read when it is sent; `skip` when it must not go, `later`
   * when it depends on one not settled yet (a cancellation waits for its confirmation: it
   * goes only to a customer who was sent the confirmation).
   */
  async function compose(message: ClaimedMessage): Promise<RenderedEmail | 'skip' | 'later'> {
    if (message.kind === 'delegate_invitation') return composeInvitation(db, cipher, message);
    if (message.kind === 'hook_disabled') {
      const hook = message.hook_id && (await hooksFacade.find(db, message.hook_id));
      if (!hook) return 'skip'; // deleted since: nothing to tell
      return renderHookDisabled({ hookId: hook.id, eventName: hook.eventName, url: hook.url });
    }
    const input = await loadConfirmation(db, message.order_id!);
    if (!input) throw new Error(`order ${message.order_id} not found`);
    if (message.kind === 'order_cancellation') {
      const confirmation = (await repo.find(message.order_id!, 'order_confirmation'))?.status;
      if (confirmation === 'pending') return 'later';
      if (confirmation !== 'sent') return 'skip';
      return renderConfirmation(input, 'cancellation');
    }
    // Canceled after this was queued (and the cancellation found it already claimed).
    if (input.order.status === 'canceled') return 'skip';
    return renderConfirmation(input);
  }

  async function deliver(message: ClaimedMessage): Promise<boolean> {
    const context = {
      outboxId: message.id,
      orderId: message.order_id,
      domain: recipientDomain(message.recipient),
      attempt: message.attempts,
    };
    if (message.attempts > maxAttempts) {
      // Earlier claims ended without an outcome (their process died): stop trying.
      await repo.markFailed(message, 'attempts exhausted without a result', 'give-up');
      logger.error(context, 'email abandoned: attempts exhausted');
      return false;
    }
    try {
      const email = await compose(message);
      if (email === 'skip') {
        await repo.markSkipped(message.id);
        logger.info(context, 'email skipped: no longer due');
        return false;
      }
      if (email === 'later') {
        await repo.markFailed(message, 'waiting for the confirmation', retryBaseMs);
        return false;
      }
      await transport.sendMail({
        from,
        to: message.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: messageIdFor(message.id, from),
        signal: AbortSignal.timeout(sendTimeoutMs),
      });
    } catch (error) {
      const { summary, details } = describeError(error);
      const giveUp = message.attempts >= maxAttempts || isPermanent(error);
      const retryInMs = giveUp ? 'give-up' : retryDelay(message.attempts, retryBaseMs, retryCapMs);
      await repo.markFailed(message, summary, retryInMs);
      if (giveUp) logger.error({ ...context, error: details }, 'email failed; giving up');
      else logger.warn({ ...context, error: details, retryInMs }, 'email failed; will retry');
      return false;
    }
    await markSent(message.id);
    logger.info(context, 'email sent');
    return true;
  }

  async function sendBatch(): Promise<{ claimed: number; sent: number }> {
    const claimed = await repo.claimDue(batchSize, leaseMs);
    const results = await Promise.allSettled(claimed.map(deliver));
    for (const result of results) {
      if (result.status === 'rejected') {
        // Recording the outcome failed (database trouble): the lease brings the message back.
        logger.error({ error: describeError(result.reason).details }, 'email outcome not recorded');
      }
    }
    const sent = results.filter((r) => r.status === 'fulfilled' && r.value).length;
    return { claimed: claimed.length, sent };
  }

  const loop = pollLoop(
    'mail dispatcher',
    async () => {
      const { claimed, sent } = await track(sendBatch());
      // A full batch that got through means more may be due: go again at once. During an
      // outage (nothing got through) keep to the poll interval instead of racing the queue.
      return claimed >= batchSize && sent > 0 ? 0 : pollMs;
    },
    (error) => {
      logger.error({ error: describeError(error).details }, 'outbox poll failed');
      return pollMs;
    },
  );

  return {
    start: () => loop.start(),

    async stop() {
      await loop.stop();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      transport.close();
    },

    async runOnce() {
      if (loop.stopped) throw new Error('the mail dispatcher has been stopped');
      const { sent } = await track(sendBatch());
      return sent;
    },
  };
}
