/**
 * During step 1 of a BOOKING_SECRET rotation (docs/operations.md) an instance not yet
 * restarted meets invitation tokens sealed under the new secret. It must keep the email,
 * token and all, for an instance that can open it, not drop it (review finding 5).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKeyCipher } from '../../src/security/api-keys.js';
import { as, createTestApp, signUp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { readInvitation } from '../helpers/invitations.js';
import { mailDispatcher, makeDue, recordingLogger } from './mail-flow.js';
import { parseMail, startSmtpServer } from './smtp.js';

const NEW_SECRET = 'the-new-secret-that-is-long-enough-9876543210';

let t: TestApp;
beforeAll(async () => {
  // An instance already restarted: the new secret, the old one as the previous.
  t = await createTestApp({ BOOKING_SECRET: NEW_SECRET, BOOKING_SECRET_PREVIOUS: TEST_SECRET });
});
afterAll(async () => t.close());

const invitationRow = () =>
  t.database.db
    .selectFrom('outbox')
    .selectAll()
    .where('kind', '=', 'delegate_invitation')
    .executeTakeFirstOrThrow();

it('an instance still on the old secret keeps the invitation email for one that opens it', async () => {
  const smtp = await startSmtpServer(0);
  const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  const invited = await as(t.app, seller, {
    method: 'POST',
    url: `/api/users/${seller.id}/delegates`,
    payload: { email: 'ops@example.com', roles: ['ROLE_CHECKIN'] },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const delegateId = invited.json().id;

  const oldLogger = recordingLogger();
  const old = mailDispatcher(t.database, smtp.port, {
    cipher: createApiKeyCipher(TEST_SECRET),
    logger: oldLogger,
  });
  const restarted = mailDispatcher(t.database, smtp.port, {
    cipher: createApiKeyCipher(NEW_SECRET, TEST_SECRET),
  });
  try {
    expect(await old.runOnce()).toBe(0);
    const kept = await invitationRow();
    expect(kept).toMatchObject({ status: 'pending', attempts: 1 });
    expect(kept.secret).not.toBeNull();
    expect(smtp.received).toHaveLength(0);
    expect(oldLogger.lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'email failed; will retry'],
    ]);
    expect(JSON.stringify(oldLogger.lines)).not.toContain('ops@');

    await makeDue(t.database);
    expect(await restarted.runOnce()).toBe(1);
    expect(await invitationRow()).toMatchObject({ status: 'sent', secret: null });
    const [email] = smtp.received;
    expect(email!.rcptTo).toEqual(['ops@example.com']);
    const { token, acceptUrl } = readInvitation(parseMail(email!.raw).parts.get('text/plain')!);
    expect(acceptUrl).toBe(`/api/users/${seller.id}/delegates/${delegateId}/accept`);

    const invitee = await signUp(t.app, { name: 'Ops Person' });
    const accepted = await as(t.app, invitee, {
      method: 'POST',
      url: acceptUrl,
      payload: { token },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  } finally {
    await old.stop();
    await restarted.stop();
    await smtp.close();
  }
});
