/**
 * The mail dispatcher's two rules on a failure: which SMTP refusals are permanent (only the
 * mailbox's own), and how many attempts the give-up window takes (review findings 1 and 2).
 */
import { describe, expect, it } from 'vitest';
import { attemptsToSpan } from '../../src/mail/backoff.js';
import { isPermanent } from '../../src/mail/smtp-errors.js';

const refusal = (command: string, response: string) => ({
  code: 'EENVELOPE',
  command,
  response,
  responseCode: Number(response.slice(0, 3)),
});

describe('isPermanent', () => {
  it.each([
    ['RCPT TO', '550 5.1.1 No such user'],
    ['RCPT TO', '550 No such mailbox here'],
    ['RCPT TO', '551 User not local'],
    ['RCPT TO', '553 5.1.3 Bad recipient address syntax'],
    ['RCPT TO', '554 5.1.2 Bad destination domain'],
  ])('%s %s: the mailbox is refused for good', (command, response) => {
    expect(isPermanent(refusal(command, response))).toBe(true);
  });

  it.each([
    ['MAIL FROM', '530 5.7.0 Authentication required'],
    ['MAIL FROM', '550 5.7.1 Sender address rejected'],
    ['MAIL FROM', '553 Sender not allowed'],
    ['RCPT TO', '554 5.7.1 Relay access denied'],
    ['RCPT TO', '550 5.7.1 Client host rejected'],
    ['RCPT TO', '554 Transaction failed'],
    ['RCPT TO', '552 5.2.2 Mailbox full'],
    ['RCPT TO', '450 4.1.1 Try again later'],
    ['DATA', '554 5.3.0 Transaction failed'],
  ])('%s %s: retried', (command, response) => {
    expect(isPermanent(refusal(command, response))).toBe(false);
  });

  it('retries what is not an SMTP refusal', () => {
    expect(isPermanent(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isPermanent(undefined)).toBe(false);
  });
});

describe('attemptsToSpan', () => {
  it('counts the attempts whose delays before them add up to the window', () => {
    expect(attemptsToSpan(0, 5000)).toBe(1);
    expect(attemptsToSpan(5000, 5000)).toBe(2);
    expect(attemptsToSpan(30_000, 5000)).toBe(4); // 5 + 10 + 20 s
    // The defaults: 5 s doubling to the 1 h cap (85 minutes), then hourly to 72 h.
    expect(attemptsToSpan(72 * 3_600_000, 5000, 3_600_000)).toBe(82);
    // A base of 1 ms reaches the cap sooner; the window still holds.
    expect(attemptsToSpan(72 * 3_600_000, 1, 3_600_000)).toBeGreaterThan(72);
  });
});
