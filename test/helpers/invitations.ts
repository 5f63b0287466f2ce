/**
 * Invitation emails as the invited person reads them: the newest one queued for an
 * invitation, rendered by the dispatcher's own code (src/mail/invitation.ts), and the token
 * and request it shows. For tests that need no SMTP server; test/http/invitations.test.ts
 * also reads them off a real one.
 */
import type { FastifyInstance } from 'fastify';
import { composeInvitation } from '../../src/mail/index.js';
import { configuredCipher } from '../../src/security/secret.js';
import { testAppOf } from './app.js';

export interface InvitationEmail {
  subject: string;
  text: string;
  token: string;
  /** The request the email says to send, e.g. `/api/users/{seller}/delegates/{id}/accept`. */
  acceptUrl: string;
}

/** What an invitation email's text says: the token and where to send it. */
export function readInvitation(text: string): Pick<InvitationEmail, 'token' | 'acceptUrl'> {
  const token = /\{"token": "([^"]+)"\}/.exec(text)?.[1];
  const acceptUrl = /POST (\/api\/users\/[0-9a-f]{24}\/delegates\/[0-9a-f]{24}\/accept)/.exec(
    text,
  )?.[1];
  if (!token || !acceptUrl) throw new Error(`not an invitation email:\n${text}`);
  return { token, acceptUrl };
}

/** The newest invitation email waiting to be sent for an invitation (a delegation by email). */
export async function invitationEmail(
  app: FastifyInstance,
  delegateId: string,
): Promise<InvitationEmail> {
  const { database, config } = testAppOf(app);
  const message = await database.db
    .selectFrom('outbox')
    .selectAll()
    .where('delegate_id', '=', delegateId)
    .where('kind', '=', 'delegate_invitation')
    .where('status', '=', 'pending')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!message) throw new Error(`no invitation email queued for ${delegateId}`);
  const email = await composeInvitation(database.db, configuredCipher(config), message);
  if (email === 'skip') throw new Error(`the invitation email of ${delegateId} would not be sent`);
  return { subject: email.subject, text: email.text, ...readInvitation(email.text) };
}
