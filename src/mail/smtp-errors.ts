/**
 * What an SMTP failure means for the message: permanent (this mailbox will never take it) or
 * worth retrying; and how it is logged and stored, without the address it may quote.
 *
 * Nodemailer reports every envelope refusal as `EENVELOPE`: the reply to MAIL FROM, to RCPT
 * TO, and to the DATA command alike. Most of these are about the relay, not the recipient:
 * credentials rotated (530 5.7.0), this host not on the relay's allow-list (554 5.7.1), the
 * sender's domain not verified (550 5.7.1). Taking them for permanent failed the whole queue
 * in one poll, so only a RCPT TO refusal that names the mailbox is.
 */

export interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
  /** The server's reply line, e.g. `550 5.1.1 No such user`. */
  response?: string;
  message?: string;
}

/** Replaces the local part of any address in a text (SMTP replies often quote the recipient). */
export const redactAddresses = (text: string) =>
  text.replace(/[^\s<>"'():;,[\]]+@([^\s<>"'():;,[\]]+)/g, '…@$1');

export function describeError(error: unknown): {
  summary: string;
  details: Omit<SmtpError, 'response'>;
} {
  const e = (error ?? {}) as SmtpError;
  const message = redactAddresses(e.message ?? String(error));
  const details: SmtpError = { message };
  if (typeof e.code === 'string') details.code = e.code;
  if (typeof e.responseCode === 'number') details.responseCode = e.responseCode;
  if (typeof e.command === 'string') details.command = e.command;
  return { summary: [e.code, message].filter(Boolean).join(': '), details };
}

/** Replies that say the mailbox does not exist or cannot be addressed (RFC 5321 4.2.2). */
const NO_SUCH_MAILBOX = new Set([550, 551, 553]);

/** The enhanced status code of a reply (RFC 3463), `5.1.1` in `550 5.1.1 User unknown`. */
const enhancedStatus = (response: string | undefined) =>
  /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(response ?? '')?.[1];

/**
 * A refusal that will not change on retry: RCPT TO refused with an enhanced status of class
 * 5.1 (bad mailbox, bad domain, bad syntax), or without one, 550/551/553. A 5.7 status is a
 * policy, relay or authentication refusal, and every other reply to MAIL FROM, RCPT TO or DATA
 * may be the relay's: those are retried on the normal schedule.
 */
export function isPermanent(error: unknown): boolean {
  const e = (error ?? {}) as SmtpError;
  if (e.code !== 'EENVELOPE' || e.command !== 'RCPT TO') return false;
  if (typeof e.responseCode !== 'number' || e.responseCode < 500) return false;
  const status = enhancedStatus(e.response);
  if (status !== undefined) return status.startsWith('5.1.');
  return NO_SUCH_MAILBOX.has(e.responseCode);
}
