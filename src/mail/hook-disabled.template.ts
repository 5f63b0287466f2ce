/** The email telling a hook's owner that the hook was disabled after failing deliveries. */
import { escapeHtml, type RenderedEmail } from './confirmation.template.js';

export interface HookDisabledInput {
  hookId: string;
  eventName: string;
  url: string;
}

export function renderHookDisabled(input: HookDisabledInput): RenderedEmail {
  const lines = [
    'Hello,',
    '',
    `Your webhook ${input.hookId} (${input.eventName} to ${input.url}) was disabled: its deliveries kept failing for the whole retry schedule.`,
    '',
    'Events are not sent to it while it is disabled. Fix the receiver, then enable the hook again:',
    `POST /api/users/{your id}/hooks/${input.hookId}/enable`,
    '',
    'Failed deliveries can be resent from GET /api/users/{your id}/hooks/{hook id}/deliveries.',
  ];
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><head><meta charset="utf-8" /><title>Webhook disabled</title></head><body>${lines
    .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ''))
    .join('')}</body></html>`;
  return { subject: 'Webhook disabled after failing deliveries', text, html };
}
