/**
 * The shutdown budget covers every worker's longest wait: a webhook delivery, and with a
 * relay configured an email send, both derived from their one setting (review finding 3).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { mailTimeouts } from '../../src/mail/dispatcher.js';
import { CLOSE_MARGIN_MS, shutdownBudgetMs } from '../../src/shutdown-budget.js';

const SMTP = { SMTP_URL: 'smtp://relay.example:25' };

describe('shutdownBudgetMs', () => {
  it('is the drain plus max(10 s, the webhook timeout + 5 s) without a relay', () => {
    expect(shutdownBudgetMs(loadConfig({}))).toBe(15_000);
    expect(shutdownBudgetMs(loadConfig({ SHUTDOWN_DRAIN_MS: '3000' }))).toBe(18_000);
    expect(shutdownBudgetMs(loadConfig({ WEBHOOK_TIMEOUT_MS: '1000' }))).toBe(10_000);
  });

  it('waits for an email send with a relay configured', () => {
    expect(shutdownBudgetMs(loadConfig(SMTP))).toBe(25_000);
    expect(shutdownBudgetMs(loadConfig({ ...SMTP, SHUTDOWN_DRAIN_MS: '3000' }))).toBe(28_000);
    expect(shutdownBudgetMs(loadConfig({ ...SMTP, OUTBOX_SEND_TIMEOUT_MS: '40000' }))).toBe(45_000);
    expect(
      shutdownBudgetMs(
        loadConfig({ ...SMTP, OUTBOX_SEND_TIMEOUT_MS: '2000', WEBHOOK_TIMEOUT_MS: '30000' }),
      ),
    ).toBe(35_000);
  });

  it('covers what the dispatcher built from the same configuration may take', () => {
    for (const sendTimeout of ['1000', '20000', '60000']) {
      const config = loadConfig({ ...SMTP, OUTBOX_SEND_TIMEOUT_MS: sendTimeout });
      const mail = mailTimeouts(config.outbox);
      expect(mail.sendTimeoutMs).toBe(Number(sendTimeout));
      // Every nodemailer timeout lies within the send's, the send within the claim's lease.
      expect(Math.max(mail.connectionTimeout, mail.greetingTimeout, mail.socketTimeout)).toBe(
        mail.sendTimeoutMs,
      );
      expect(mail.leaseMs).toBeGreaterThan(mail.sendTimeoutMs);
      expect(shutdownBudgetMs(config)).toBeGreaterThanOrEqual(mail.sendTimeoutMs + CLOSE_MARGIN_MS);
    }
  });
});
