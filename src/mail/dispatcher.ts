/**
 * The mail dispatcher: polls the outbox, claims due messages (safe across instances: SKIP
 * LOCKED plus a lease, see outbox.repository.ts), sends each over SMTP and records the
 * outcome, retrying with backoff until its retries have spanned `giveUpAfterMs` (3 days by
 * default, as webhooks do: "no email lost when SMTP is down"), then marking it failed, which
 * `cli outbox retry` undoes. Only a refusal of the mailbox itself fails at once
 * (smtp-errors.ts).
 *
 * Delivery is at-least-once with one narrow window: if the process dies after the SMTP
 * server accepted a message and before it is marked sent, the message is sent again when
 * its lease runs out. Each message therefore carries a Message-ID derived from its outbox
 * id, the same on every attempt, by which a receiver can discard the duplicate. A send must
 * end within its claim's lease, composing included, or another instance could send it too.
 *
 * Logs name the outbox id, the order id and the recipient's domain; never the address, the
 * content, or the SMTP URL (which may carry credentials).
 */
import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { mailDeliveries } from '../metrics/index.js';
import { DEFAULT_RETRY_CAP_MS, attemptsToSpan, retryDelay } from './backoff.js';
import { loadConfirmation as defaultLoader } from './confirmation.sources.js';
import { pollLoop } from '../outbox/index.js';
import type { ApiKeyCipher } from '../security/api-keys.js';
import { composeEmail } from './compose.js';
import type { LoadConfirmation } from './confirmation.loader.js';
import { outboxRepository, type ClaimedMessage } from './outbox.repository.js';
import { describeError, isPermanent } from './smtp-errors.js';

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
  /** How long the retries of a failing message go on before it is marked failed. */
  giveUpAfterMs?: number;
  /** Attempts (claims) before a message is marked failed; by default what `giveUpAfterMs` takes. */
  maxAttempts?: number;
  /**
   * The longest one message may take from its claim to the relay's answer (OUTBOX_SEND_TIMEOUT_MS);
   * the lease is derived from it (mailTimeouts), and a shutdown waits this long (shutdown-budget.ts).
   */
  sendTimeoutMs?: number;
  /** How long a claim is exclusive; by default derived from `sendTimeoutMs`. */
  leaseMs?: number;
  /** Messages claimed (and sent concurrently) per poll. */
  batchSize?: number;
  /** Opens the sealed tokens of invitation emails (the server secret's). */
  cipher?: ApiKeyCipher;
}

export interface Dispatcher {
  /** Starts polling; returns at once. */
  start(): void;
  /** Claims no more messages (a stop begins: http/module.ts, Worker); sends in flight go on. */
  stopClaiming(): void;
  /** Stops polling and resolves once every send in flight has finished and been recorded. */
  stop(): Promise<void>;
  /** Claims and sends one batch of due messages now; resolves to how many were sent. */
  runOnce(): Promise<number>;
}

/** The share of a lease a send may use: the rest is margin to record its outcome. */
const SEND_SHARE_OF_LEASE = 0.8;
/** What a last try of recording a send needs before the lease ends. */
const MARK_SENT_MARGIN_MS = 500;
export const DEFAULT_SEND_TIMEOUT_MS = 20_000;
export const DEFAULT_GIVE_UP_AFTER_MS = 72 * 60 * 60 * 1000;
/** Less than this left of a claim after composing: not worth starting the SMTP session. */
const MIN_SEND_MS = 1000;

/**
 * Every mail timeout from the one value: the claim's lease (a quarter longer than the send, to
 * record the outcome) and nodemailer's connection timeouts within it. With only a lease (tests),
 * the send gets its usual share of it.
 */
export function mailTimeouts(options: { sendTimeoutMs?: number; leaseMs?: number }) {
  const sendTimeoutMs =
    options.sendTimeoutMs ??
    (options.leaseMs === undefined
      ? DEFAULT_SEND_TIMEOUT_MS
      : Math.floor(options.leaseMs * SEND_SHARE_OF_LEASE));
  return {
    sendTimeoutMs,
    leaseMs: options.leaseMs ?? Math.ceil(sendTimeoutMs / SEND_SHARE_OF_LEASE),
    connectionTimeout: Math.min(sendTimeoutMs, 10_000),
    greetingTimeout: Math.min(sendTimeoutMs, 10_000),
    socketTimeout: sendTimeoutMs,
  };
}

/** "user@Example.com" -> "example.com": all a log line may say about a recipient. */
export const recipientDomain = (address: string) =>
  address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The same Message-ID on every attempt of one outbox message. */
export function messageIdFor(outboxId: string, from: string): string {
  const domain = /@([^\s>]+)\s*>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox.${outboxId}@${domain}>`;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const {
    db,
    from,
    logger,
    pollMs = 1000,
    retryBaseMs = 5000,
    retryCapMs = DEFAULT_RETRY_CAP_MS,
    giveUpAfterMs = DEFAULT_GIVE_UP_AFTER_MS,
    batchSize = 10,
    loadConfirmation = defaultLoader,
    cipher,
  } = options;
  const maxAttempts = options.maxAttempts ?? attemptsToSpan(giveUpAfterMs, retryBaseMs, retryCapMs);
  const { sendTimeoutMs, leaseMs, ...connection } = mailTimeouts(options);
  const repo = outboxRepository(db);
  // One connection per message (no pool): sends of a batch run side by side, and nothing
  // is left open between polls.
  const transport = nodemailer.createTransport({ url: options.smtpUrl, ...connection });

  const inFlight = new Set<Promise<unknown>>();

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  /**
   * Records a message the relay accepted, trying again until `leaseEnd` (this process's clock)
   * is near: unrecorded, it is sent again once the lease runs out. Three tries over 0.6 s
   * used to end there, so a database blip of a second right after the relay's answer sent
   * the email twice; the lease leaves a quarter of the send's time for this (5 s by default).
   */
  async function markSent(id: string, leaseEnd: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.markSent(id);
        return;
      } catch (error) {
        const waitMs = Math.min(200 * attempt, 1000);
        if (Date.now() + waitMs > leaseEnd - MARK_SENT_MARGIN_MS) throw error;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /** `deadline` (this process's clock): where the send must end, inside the claim's lease. */
  async function deliver(message: ClaimedMessage, deadline: number): Promise<boolean> {
    const context = {
      outboxId: message.id,
      orderId: message.order_id,
      domain: recipientDomain(message.recipient),
      attempt: message.attempts,
    };
    if (message.attempts > maxAttempts) {
      // Earlier claims ended without an outcome (their process died): stop trying.
      await repo.markFailed(message, 'attempts exhausted without a result', 'give-up');
      mailDeliveries.inc({ result: 'gave_up' });
      logger.error(context, 'email abandoned: attempts exhausted');
      return false;
    }
    try {
      const email = await composeEmail({ db, cipher, loadConfirmation }, message);
      if (email === 'later') {
        // Nothing was tried: the wait does not use up the message's attempts.
        await repo.putBack(message, 'waiting for the confirmation', retryBaseMs);
        return false;
      }
      if ('skip' in email) {
        await repo.markSkipped(message.id);
        mailDeliveries.inc({ result: 'skipped' });
        logger.info({ ...context, reason: email.skip }, `email skipped: ${email.skip}`);
        return false;
      }
      const leftMs = deadline - Date.now();
      if (leftMs < MIN_SEND_MS) {
        // Composing took the claim's time (a starved pool): a send now could outlive the
        // lease while another instance sends it too. Not the message's fault: no attempt.
        await repo.putBack(message, 'composing outlasted the claim', retryBaseMs);
        logger.warn(context, 'email put back: composing outlasted its claim');
        return false;
      }
      await transport.sendMail({
        from,
        to: message.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: messageIdFor(message.id, from),
        signal: AbortSignal.timeout(leftMs),
      });
    } catch (error) {
      const { summary, details } = describeError(error);
      const giveUp = message.attempts >= maxAttempts || isPermanent(error);
      const retryInMs = giveUp ? 'give-up' : retryDelay(message.attempts, retryBaseMs, retryCapMs);
      await repo.markFailed(message, summary, retryInMs);
      mailDeliveries.inc({ result: giveUp ? 'gave_up' : 'failed' });
      if (giveUp) logger.error({ ...context, error: details }, 'email failed; giving up');
      else logger.warn({ ...context, error: details, retryInMs }, 'email failed; will retry');
      return false;
    }
    // The lease began with the claim, as the deadline did (sendBatch).
    await markSent(message.id, deadline - sendTimeoutMs + leaseMs);
    mailDeliveries.inc({ result: 'sent' });
    logger.info(context, 'email sent');
    return true;
  }

  async function sendBatch(): Promise<{ claimed: number; sent: number }> {
    // Read before the claim: the lease starts at or after this, so the deadline is inside it.
    const deadline = Date.now() + sendTimeoutMs;
    const claimed = await repo.claimDue(batchSize, leaseMs);
    const results = await Promise.allSettled(claimed.map((m) => deliver(m, deadline)));
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

    // A poll claims as it starts: once the loop schedules none, nothing more is claimed.
    stopClaiming: () => loop.stopClaiming(),

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
