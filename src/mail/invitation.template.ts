/**
 * The invitation email: a seller invites an address to act for it, and the email carries the
 * secret token that alone accepts (docs/security.md, "Invitations"). The token is shown with
 * the request that spends it; the service has no web pages for a link to open.
 */
import { escapeHtml, oneLine, type RenderedEmail } from './confirmation.template.js';

export interface InvitationInput {
  sellerId: string;
  sellerName: string;
  delegateId: string;
  roles: readonly string[];
  token: string;
  expiresAt: Date;
}

export function renderInvitation(input: InvitationInput): RenderedEmail {
  const lines = [
    'Hello,',
    '',
    `The seller named "${oneLine(input.sellerName)}" on the booking service invites you to act for it, with the roles ${input.roles.join(', ')}.`,
    '',
    `To accept, sign in with an account of yours (or create one) and send this request before ${input.expiresAt.toISOString()}:`,
    `POST /api/users/${input.sellerId}/delegates/${input.delegateId}/accept`,
    `{"token": "${input.token}"}`,
    '',
    'The token works once. Whoever holds it can accept with any account, so do not forward this email. If you did not expect it, ignore it: nothing happens unless it is accepted.',
  ];
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><head><meta charset="utf-8" /><title>Invitation</title></head><body>${lines
    .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ''))
    .join('')}</body></html>`;
  // The seller's name is its own free text: quoted in the body, kept out of the subject (a
  // name such as "Your account is locked" would otherwise head a mail from our sender).
  return { subject: 'An invitation to act for a seller', text, html };
}
