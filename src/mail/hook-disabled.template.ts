/**
 * The email telling a hook's owner that the hook was disabled after failing deliveries; for
 * a hook of one of its resellers (OCTo), one worded for the seller, without the receiver's
 * URL (the reseller's, often holding a token) and with what only the reseller can do.
 */
import { escapeHtml, type RenderedEmail } from './confirmation.template.js';

export interface HookDisabledInput {
  hookId: string;
  eventName: string;
  url: string;
}

export function renderHookDisabled(input: HookDisabledInput): RenderedEmail {
  return rendered([
    'Hello,',
    '',
    `Your webhook ${input.hookId} (${input.eventName} to ${input.url}) was disabled: its deliveries kept failing for the whole retry schedule.`,
    '',
    'Events are not sent to it while it is disabled. Fix the receiver, then enable the hook again:',
    `POST /api/users/{your id}/hooks/${input.hookId}/enable`,
    '',
    'Failed deliveries can be resent from GET /api/users/{your id}/hooks/{hook id}/deliveries.',
  ]);
}

export interface ResellerHookDisabledInput {
  /** The name the seller gave the reseller's credential (its affiliate). */
  resellerName: string;
  eventName: string;
}

export function renderResellerHookDisabled(input: ResellerHookDisabledInput): RenderedEmail {
  return rendered([
    'Hello,',
    '',
    `A webhook of your reseller "${input.resellerName}" (OCTo ${input.eventName}) was disabled: its receiver kept failing for the whole retry schedule.`,
    '',
    "Nothing is sent to it while it is disabled, so the reseller is not told of changes to its bookings or your availability. The receiver is the reseller's: only the reseller can enable it again, once it answers, by registering the same URL and event again (POST /octo/webhooks). You may want to let them know.",
  ]);
}

function rendered(lines: readonly string[]): RenderedEmail {
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><head><meta charset="utf-8" /><title>Webhook disabled</title></head><body>${lines
    .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ''))
    .join('')}</body></html>`;
  return { subject: 'Webhook disabled after failing deliveries', text, html };
}
