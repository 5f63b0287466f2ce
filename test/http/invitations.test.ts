/**
 * Invitations by email through the public API (docs/security.md, "Invitations"): only the
 * secret token of the invitation email accepts, and the email goes out through the outbox.
 * Emails are read off a real SMTP server, sent by the dispatcher as in production.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../src/mail/dispatcher.js';
import { composeInvitation, sealedInvitations } from '../../src/mail/index.js';
import { createApiKeyCipher } from '../../src/security/api-keys.js';
import { configuredCipher } from '../../src/security/secret.js';
import { resealAll } from '../../src/security/secret-rotation.js';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  TEST_SECRET,
  uniqueEmail,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { readInvitation } from '../helpers/invitations.js';
import { freePort, parseMail, startSmtpServer, type TestSmtpServer } from '../mail/smtp.js';

let t: TestApp;
let smtp: TestSmtpServer;
let mail: Dispatcher;
let shop: Shop;

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtpServer(await freePort());
  mail = createDispatcher({
    db: t.database.db,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: 'Bookings <bookings@example.test>',
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    cipher: configuredCipher(t.config),
    retryBaseMs: 10,
  });
  // A seller with a customer's order: what a delegate could read.
  shop = await openShop(t.app);
  const booked = await book(t.app, shop.seller, {
    customerName: 'Carla Customer',
    customerEmail: 'carla@example.com',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
});
afterAll(async () => {
  await mail.stop();
  await smtp.close();
  await t.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const invite = (email: string, roles = ['ROLE_SELLER_ADMIN'], seller = shop.seller) =>
  as(t.app, seller, {
    method: 'POST',
    url: `/api/users/${seller.id}/delegates`,
    payload: { email, roles },
  });

const accept = (account: Account, sellerId: string, delegateId: string, token: string) =>
  as(t.app, account, {
    method: 'POST',
    url: `/api/users/${sellerId}/delegates/${delegateId}/accept`,
    payload: { token },
  });

/** Sends what is due, and returns the invitation emails `address` received. */
async function inbox(address: string) {
  while ((await mail.runOnce()) > 0);
  return smtp.received
    .filter((m) => m.rcptTo.includes(address))
    .map((m) => {
      const parsed = parseMail(m.raw);
      const text = parsed.parts.get('text/plain') ?? '';
      return { subject: parsed.headers.get('subject'), text, ...readInvitation(text) };
    });
}

async function onlyInvitation(address: string) {
  const received = await inbox(address);
  expect(received).toHaveLength(1);
  return received[0]!;
}

/** What an account can see of the shop: its orders, its delegates. */
async function seesOfShop(account: Account) {
  const orders = await as(t.app, account, {
    method: 'GET',
    url: `/api/orders?seller=${shop.seller.id}`,
  });
  const delegates = await as(t.app, account, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/delegates`,
  });
  return { orders: orders.json().data.length, delegates: delegates.json().data.length };
}

/** A problem body with the ids that differ between two probes masked. */
const masked = (body: string) =>
  body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<request-id>')
    .replace(/[0-9a-f]{24}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>');

const invitationEmailsTo = (address: string) =>
  t.database.db
    .selectFrom('outbox')
    .select(['kind', 'status', 'delegate_id', 'secret'])
    .where('recipient', '=', address)
    .where('kind', '=', 'delegate_invitation')
    .execute();

describe('an invitation by email', () => {
  it('cannot be taken by a stranger who signs up with the invited address', async () => {
    const address = uniqueEmail('invitee');
    const invited = await invite(address);
    expect(invited.statusCode, invited.body).toBe(201);
    const delegateId = invited.json().id as string;

    // Nobody proved the address by signing up with it.
    const stranger = await signUp(t.app, { email: address });
    const unknown = expectProblem(
      await accept(stranger, shop.seller.id, 'ffffffff0123456789abcdef', 'a'.repeat(43)),
      404,
      'not_found',
    );
    for (const token of ['a'.repeat(43), 'guess']) {
      const refused = await accept(stranger, shop.seller.id, delegateId, token);
      expect(masked(JSON.stringify(expectProblem(refused, 404, 'not_found')))).toBe(
        masked(JSON.stringify(unknown)),
      );
    }
    // Without a token at all: a bad request, and nothing accepted.
    expectProblem(
      await as(t.app, stranger, {
        method: 'POST',
        url: `/api/users/${shop.seller.id}/delegates/${delegateId}/accept`,
      }),
      400,
      'validation_failed',
    );
    expect(await seesOfShop(stranger)).toEqual({ orders: 0, delegates: 0 });
    expectProblem(
      await as(t.app, stranger, {
        method: 'GET',
        url: `/api/users/${shop.seller.id}/delegates/${delegateId}`,
      }),
      403,
      'forbidden',
    );

    // The person who reads the mailbox accepts, with an account of its own (the address is
    // taken): the seller sees which account that is.
    const email = await onlyInvitation(address);
    expect(email.acceptUrl).toBe(`/api/users/${shop.seller.id}/delegates/${delegateId}/accept`);
    const owner = await signUp(t.app, { name: 'Ines Invitee' });
    const accepted = await accept(owner, shop.seller.id, delegateId, email.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user).toEqual({
      id: owner.id,
      name: 'Ines Invitee',
      email: owner.email,
    });
    expect((await seesOfShop(owner)).orders).toBeGreaterThan(0);
    expect(await seesOfShop(stranger)).toEqual({ orders: 0, delegates: 0 });
  });

  it('is accepted once, with the token of its email, by the account signed in', async () => {
    const invitee = await signUp(t.app, { name: 'Ann Staff' });
    const invited = await invite(invitee.email, ['ROLE_RESERVATION']);
    const delegateId = invited.json().id as string;
    expect(await seesOfShop(invitee)).toEqual({ orders: 0, delegates: 0 });

    const email = await onlyInvitation(invitee.email);
    expect(email.text).toContain('ROLE_RESERVATION');
    const accepted = await accept(invitee, shop.seller.id, delegateId, email.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      id: delegateId,
      user: { id: invitee.id, name: 'Ann Staff', email: invitee.email },
      roles: ['ROLE_RESERVATION'],
    });
    expect((await seesOfShop(invitee)).orders).toBeGreaterThan(0);

    // Spent: the same token again, by anyone, is an unknown invitation.
    const other = await signUp(t.app);
    for (const account of [invitee, other]) {
      expectProblem(
        await accept(account, shop.seller.id, delegateId, email.token),
        404,
        'not_found',
      );
    }
    expect(await seesOfShop(other)).toEqual({ orders: 0, delegates: 0 });
    // Nothing of the token is left in the database: not its digest, not the sealed email copy.
    const [row] = await t.database.db
      .selectFrom('delegates')
      .select(['invitation_digest', 'invitation_expires_at'])
      .where('id', '=', delegateId)
      .execute();
    expect(row).toEqual({ invitation_digest: null, invitation_expires_at: null });
    expect(await invitationEmailsTo(invitee.email)).toEqual([
      { kind: 'delegate_invitation', status: 'sent', delegate_id: delegateId, secret: null },
    ]);
  });

  it('expires', async () => {
    const invitee = await signUp(t.app);
    const delegateId = (await invite(invitee.email)).json().id as string;
    const { token } = await onlyInvitation(invitee.email);
    const expiry = await t.database.db
      .selectFrom('delegates')
      .select(sql<number>`extract(epoch from invitation_expires_at - now())`.as('seconds'))
      .where('id', '=', delegateId)
      .executeTakeFirstOrThrow();
    // Seven days from the invitation (docs/security.md).
    expect(Math.abs(Number(expiry.seconds) - 7 * 24 * 3600)).toBeLessThan(3600);
    await t.database.db
      .updateTable('delegates')
      .set({ invitation_expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', delegateId)
      .execute();
    expectProblem(await accept(invitee, shop.seller.id, delegateId, token), 404, 'not_found');
    expect(await seesOfShop(invitee)).toEqual({ orders: 0, delegates: 0 });
  });

  it('takes only its own token: not another invitation’s, nor another seller’s', async () => {
    const invitee = await signUp(t.app);
    const other = await openShop(t.app);
    const mine = (await invite(invitee.email, ['ROLE_GUIDE'])).json().id as string;
    const theirs = (await invite(invitee.email, ['ROLE_SELLER_ADMIN'], other.seller)).json()
      .id as string;
    const colleague = uniqueEmail('colleague');
    const next = (await invite(colleague, ['ROLE_SELLER_ADMIN'])).json().id as string;
    const received = await inbox(invitee.email);
    expect(received).toHaveLength(2);
    const tokenOf = (id: string) => received.find((m) => m.acceptUrl.includes(id))!.token;
    const colleagueToken = (await onlyInvitation(colleague)).token;

    // Another seller's token on my invitation, and mine on theirs (path of the other seller).
    expectProblem(await accept(invitee, shop.seller.id, mine, tokenOf(theirs)), 404, 'not_found');
    expectProblem(await accept(invitee, other.seller.id, theirs, tokenOf(mine)), 404, 'not_found');
    // My token on the right invitation under the wrong seller.
    expectProblem(await accept(invitee, other.seller.id, mine, tokenOf(mine)), 404, 'not_found');
    // Another invitation of the same seller.
    expectProblem(await accept(invitee, shop.seller.id, next, tokenOf(mine)), 404, 'not_found');
    expectProblem(await accept(invitee, shop.seller.id, mine, colleagueToken), 404, 'not_found');
    expect(await seesOfShop(invitee)).toEqual({ orders: 0, delegates: 0 });

    expect((await accept(invitee, shop.seller.id, mine, tokenOf(mine))).statusCode).toBe(200);
    expect((await accept(invitee, other.seller.id, theirs, tokenOf(theirs))).statusCode).toBe(200);
  });

  it('sent again voids the earlier token and the earlier email not yet sent', async () => {
    const invitee = await signUp(t.app);
    const first = await invite(invitee.email, ['ROLE_GUIDE']);
    const before = await onlyInvitation(invitee.email);
    smtp.received.length = 0;
    // Twice more before anything is sent: only the newest email goes out.
    await invite(invitee.email, ['ROLE_CURATOR']);
    const again = await invite(invitee.email, ['ROLE_RESERVATION']);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const after = await onlyInvitation(invitee.email);
    expect(after.text).toContain('ROLE_RESERVATION');
    expect(after.token).not.toBe(before.token);
    expect((await invitationEmailsTo(invitee.email)).map((m) => m.status).sort()).toEqual([
      'sent',
      'sent',
      'skipped',
    ]);

    const id = first.json().id as string;
    expectProblem(await accept(invitee, shop.seller.id, id, before.token), 404, 'not_found');
    const accepted = await accept(invitee, shop.seller.id, id, after.token);
    expect(accepted.json().roles).toEqual(['ROLE_RESERVATION']);

    // Accepted: inviting the address again changes the roles and sends no token.
    const changed = await invite(invitee.email, ['ROLE_GUIDE']);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user.id).toBe(invitee.id);
    expect(await inbox(invitee.email)).toHaveLength(1); // the one read above
  });

  it('is mailed by one account to one address at most 3 times an hour, and 30 times in all', async () => {
    const own = await openShop(t.app);
    const address = `bombed.${Date.now()}@example.org`;
    const delegates = async () =>
      (
        await as(t.app, own.seller, {
          method: 'GET',
          url: `/api/users/${own.seller.id}/delegates`,
        })
      ).json().data as { id: string; roles: string[] }[];
    /** The hour passes for the invitations sent so far (their emails two hours older). */
    const anHourLater = () =>
      sql`update outbox set created_at = created_at - interval '2 hours'
        where kind = 'delegate_invitation'`.execute(t.database.db);
    for (const roles of [['ROLE_GUIDE'], ['ROLE_CURATOR'], ['ROLE_RESERVATION']]) {
      expect((await invite(address, roles, own.seller)).statusCode).toBeLessThan(300);
    }
    const fourth = expectProblem(
      await invite(address, ['ROLE_GUIDE'], own.seller),
      429,
      'rate_limited',
    );
    expect(fourth.detail).toContain('one address at most 3 invitations an hour');
    // Refused, it changed nothing: the roles of the third stand, three emails were queued.
    expect((await delegates()).map((d) => d.roles)).toEqual([['ROLE_RESERVATION']]);
    expect(await invitationEmailsTo(address)).toHaveLength(3);
    // The seller's name is its own text: quoted in the body, never the subject.
    const [latest] = (await inbox(address)).slice(-1);
    expect(latest!.subject).toBe('An invitation to act for a seller');
    expect(latest!.text).toMatch(/The seller named "[^"\n]+" on the booking service invites/);
    // Deleting the invitation and inviting again does not wipe the count.
    const [made] = await delegates();
    const removed = await as(t.app, own.seller, {
      method: 'DELETE',
      url: `/api/users/${own.seller.id}/delegates/${made!.id}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await invite(address, ['ROLE_GUIDE'], own.seller), 429, 'rate_limited');
    // Another seller is not held by this one's count (it would tell of this one's
    // invitations, and let anyone keep an address from being invited).
    expect((await invite(address, ['ROLE_GUIDE'])).statusCode).toBe(201);
    // A "not now" is not the key's answer: the same key, once the hour has passed, is tried
    // afresh, not replayed the old 429 for a day.
    const keyed = () =>
      as(t.app, own.seller, {
        method: 'POST',
        url: `/api/users/${own.seller.id}/delegates`,
        headers: { 'idempotency-key': `again-${address}` },
        payload: { email: address, roles: ['ROLE_GUIDE'] },
      });
    expectProblem(await keyed(), 429, 'rate_limited');
    await anHourLater();
    expect((await keyed()).statusCode).toBe(201);
    // From one account, 30 an hour to any addresses (the one above and 29 more).
    for (let i = 0; i < 29; i++) {
      const staff = await invite(`staff.${i}.${address}`, ['ROLE_GUIDE'], own.seller);
      expect(staff.statusCode).toBe(201);
    }
    const spent = await invite(`one.more.${address}`, ['ROLE_GUIDE'], own.seller);
    expectProblem(spent, 429, 'rate_limited');
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(3000);
    // Another account is not held by it.
    expect((await invite(`one.more.${address}`, ['ROLE_GUIDE'])).statusCode).toBe(201);
  });

  it('is answered and mailed the same whether or not an account has the address', async () => {
    const existing = await signUp(t.app);
    const nobody = uniqueEmail('nobody');
    const answers = [];
    for (const address of [existing.email, nobody]) {
      const response = await invite(address, ['ROLE_CURATOR']);
      expect(response.statusCode).toBe(201);
      answers.push({
        headers: Object.keys(response.headers).sort(),
        body: masked(response.body.split(address).join('<address>')),
      });
      expect(await invitationEmailsTo(address)).toEqual([
        {
          kind: 'delegate_invitation',
          status: 'pending',
          delegate_id: response.json().id,
          secret: expect.any(Buffer),
        },
      ]);
    }
    expect(answers[0]).toEqual(answers[1]);
    const [a, b] = [await onlyInvitation(existing.email), await onlyInvitation(nobody)];
    expect(a.subject).toBe(b.subject);
    expect(masked(a.text.split(a.token).join('<token>'))).toBe(
      masked(b.text.split(b.token).join('<token>')),
    );
  });

  it('is queued in the invitation’s transaction: a failed email leaves no invitation', async () => {
    const address = uniqueEmail('doomed');
    // The outbox refuses this one row, as a full disk or a lost connection would.
    await sql
      .raw(
        `create function refuse_doomed() returns trigger language plpgsql as $$
         begin
           if new.recipient = '${address}' then raise exception 'outbox refused'; end if;
           return new;
         end $$`,
      )
      .execute(t.database.db);
    await sql`create trigger refuse_doomed before insert on outbox
      for each row execute function refuse_doomed()`.execute(t.database.db);
    try {
      expect((await invite(address)).statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_doomed on outbox`.execute(t.database.db);
    }
    const left = await t.database.db
      .selectFrom('delegates')
      .select('id')
      .where('email', '=', address)
      .execute();
    expect(left).toEqual([]);
    expect((await invite(address)).statusCode).toBe(201);
    expect(await invitationEmailsTo(address)).toHaveLength(1);
  });

  it('cannot be accepted by the seller itself, nor twice by one account', async () => {
    const alias = uniqueEmail('alias');
    const id = (await invite(alias)).json().id as string;
    const { token } = await onlyInvitation(alias);
    expectProblem(await accept(shop.seller, shop.seller.id, id, token), 400, 'validation_failed');

    const staff = await signUp(t.app);
    const firstId = (await invite(staff.email, ['ROLE_GUIDE'])).json().id as string;
    const first = await onlyInvitation(staff.email);
    expect((await accept(staff, shop.seller.id, firstId, first.token)).statusCode).toBe(200);
    // The token of the other invitation, presented by an account already a delegate here.
    expectProblem(await accept(staff, shop.seller.id, id, token), 409, 'already_delegate');
    // The token was not spent: another account may still accept.
    const other = await signUp(t.app);
    expect((await accept(other, shop.seller.id, id, token)).statusCode).toBe(200);
  });

  it('made before tokens (linked at sign-up, never accepted) needs a new invitation', async () => {
    // The state migration 0017 leaves such an invitation in: no account, no token.
    const address = uniqueEmail('legacy');
    const legacy = await signUp(t.app, { email: address });
    const id = 'abcdef0123456789abcdef01';
    await t.database.db
      .insertInto('delegates')
      .values({
        id,
        seller_id: shop.seller.id,
        user_id: null,
        email: address,
        roles: ['ROLE_SELLER_ADMIN'],
      })
      .execute();
    expectProblem(await accept(legacy, shop.seller.id, id, 'a'.repeat(43)), 404, 'not_found');
    expect(await seesOfShop(legacy)).toEqual({ orders: 0, delegates: 0 });
    // The seller invites the address again: the invitation gets a token, by email.
    const again = await invite(address);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(id);
    const { token } = await onlyInvitation(address);
    expect((await accept(legacy, shop.seller.id, id, token)).statusCode).toBe(200);
  });

  it('added by user id needs no acceptance and sends no email', async () => {
    const customer = await signUp(t.app);
    expect(
      (await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-02')] })).statusCode,
    ).toBe(201);
    const added = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/delegates`,
      payload: { user: { id: customer.id }, roles: ['ROLE_RESERVATION'] },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().user.id).toBe(customer.id);
    expect((await seesOfShop(customer)).orders).toBeGreaterThan(1);
    const queued = await t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('delegate_id', '=', added.json().id)
      .execute();
    expect(queued).toEqual([]);
  });
});

describe('guides linked through delegates', () => {
  it('may be linked to an invited user only once it accepted with its token', async () => {
    const invitee = await signUp(t.app);
    const id = (await invite(invitee.email, ['ROLE_GUIDE'])).json().id as string;
    const link = () =>
      as(t.app, shop.seller, {
        method: 'POST',
        url: `/api/sellers/${shop.seller.id}/guides`,
        payload: { name: 'Gus Guide', user: { id: invitee.id } },
      });
    expectProblem(await link(), 400, 'validation_failed');
    const { token } = await onlyInvitation(invitee.email);
    expect((await accept(invitee, shop.seller.id, id, token)).statusCode).toBe(200);
    expect((await link()).statusCode).toBe(201);
  });
});

// Last: the rotation reseals every token waiting, which the app's own secret then cannot open.
describe('the sealed token of an email waiting in the outbox', () => {
  it('is resealed by a secret rotation and still sent', async () => {
    const address = uniqueEmail('rotated');
    const id = (await invite(address)).json().id as string;
    const newSecret = 'the-new-secret-that-is-long-enough-0123456789';
    const rotated = createApiKeyCipher(newSecret, TEST_SECRET);
    const { resealed } = await resealAll(sealedInvitations(t.database.db), rotated);
    expect(resealed).toBeGreaterThanOrEqual(1);
    const [message] = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('delegate_id', '=', id)
      .execute();
    // Opened under the new secret alone: the rotation is over.
    const email = await composeInvitation(t.database.db, createApiKeyCipher(newSecret), message!);
    expect(email).not.toBe('skip');
    const { token } = readInvitation((email as { text: string }).text);
    const invitee = await signUp(t.app);
    expect((await accept(invitee, shop.seller.id, id, token)).statusCode).toBe(200);
  });
});
