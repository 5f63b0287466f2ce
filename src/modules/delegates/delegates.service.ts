/**
 * Delegates: users a seller lets act for it within roles. Managed by the seller, its
 * ROLE_SELLER_ADMIN delegates and admins. Adding an existing delegate replaces its roles.
 * A delegation by email is an invitation: it names no account until someone accepts it with
 * the secret token its email carries (docs/security.md, "Invitations"). What a delegate made
 * with a capability (hooks, credentials, keys) ends when it loses that capability.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor, type Tx } from '../../db/unit-of-work.js';
import type { Recorder } from '../idempotency/index.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { runList } from '../../query/run.js';
import { invitationTokenMatches } from '../../security/invitation-tokens.js';
import { announceCallerChange, usersFacade as users } from '../users/index.js';
import { delegatesFacade } from './delegates.facade.js';
import { delegateList } from './delegates.list.js';
import { type DelegateView, toDelegateView } from './delegates.schemas.js';
import { delegatesRepository } from './delegates.repository.js';
import { invite, type InvitationMail } from './invitations.js';
import { endWhatItMade, type MadeWith } from './made-by.js';

export interface NewDelegate {
  email?: string;
  user?: { id: string };
  roles: string[];
}

export interface DelegatesServiceDeps extends InvitationMail {
  db: Db;
  /** Whether a user booked with a seller (the orders module's; app.ts passes it in). */
  hasBookedWith: (db: Executor, userId: string, sellerId: string) => Promise<boolean>;
  /** After a user's delegations changed: this instance forgets its cached key (others are notified). */
  callersChanged?: (userId: string) => void;
  /**
   * What a delegate made with each capability, ended when it loses the capability (app.ts
   * passes the hooks', resellers' and checkout's; docs/security.md, "What a delegate made").
   */
  madeWith?: MadeWith;
  /** Resolves once no instance's credential cache can still hold a change just committed. */
  propagated?: () => Promise<void>;
}

export function delegatesService({
  db,
  sendInvitation,
  recentInvitations,
  hasBookedWith,
  callersChanged = () => undefined,
  madeWith = {},
  propagated = () => Promise.resolve(),
}: DelegatesServiceDeps) {
  const repo = delegatesRepository(db);
  const mail = { sendInvitation, recentInvitations };

  /**
   * Runs a change of delegations in a transaction that tells every instance whose access
   * changed (the delegation's user, if it has one), then forgets it here. When it ended
   * what the user made, it answers once no instance accepts those credentials any more, as
   * a revocation by the seller does.
   */
  async function changing<T>(
    work: (tx: Tx) => Promise<{ userId: string | null; ended?: boolean; result: T }>,
  ) {
    const { userId, ended, result } = await inTransaction(db, async (tx) => {
      const done = await work(tx);
      if (done.userId) await announceCallerChange(tx, done.userId);
      return done;
    });
    if (userId) callersChanged(userId);
    if (ended) await propagated();
    return result;
  }

  /** The seller, if it exists and the caller may manage its delegates. */
  async function managedSeller(caller: Caller, sellerId: string): Promise<void> {
    if (!(await users.isSeller(db, sellerId))) throw notFound(`Seller ${sellerId}`);
    accessOf(caller).require('delegates', sellerId, `the delegates of seller ${sellerId}`);
  }

  const ownDelegate = (name: string) =>
    new DomainError('validation_failed', 'A seller cannot be its own delegate.', {
      errors: [{ in: 'body', name, detail: 'is the seller itself' }],
    });

  return {
    /**
     * By email: an invitation to that address, answered the same whether or not an account
     * has it (no account is looked up for it); its email carries a new token, and any token
     * sent before for the same invitation stops working. By user id: only a user the seller already knows (one that booked with it, or
     * its delegate by id); anyone else is the same 404 as an unknown id.
     */
    async add(
      caller: Caller,
      sellerId: string,
      input: NewDelegate,
      record?: Recorder,
    ): Promise<{ status: 200 | 201; body: DelegateView }> {
      if ((input.email === undefined) === (input.user === undefined)) {
        throw invalid('body', 'email', 'give exactly one of email or user');
      }
      await managedSeller(caller, sellerId);
      let row: { user_id: string | null; email: string | null };
      if (input.email !== undefined) {
        const email = input.email.trim().toLowerCase();
        if ((await users.find(db, sellerId))?.email.toLowerCase() === email) {
          throw ownDelegate('email');
        }
        row = { user_id: null, email };
      } else {
        const userId = input.user!.id;
        if (userId === sellerId) throw ownDelegate('user.id');
        const known =
          (await delegatesFacade.isKnownDelegate(db, sellerId, userId)) ||
          (await hasBookedWith(db, userId, sellerId));
        if (!known) throw notFound(`User ${userId}`);
        row = { user_id: userId, email: null };
      }
      return changing(async (tx) => {
        const delegates = delegatesRepository(tx);
        const { id, created } = await delegates.upsert({
          id: newId(),
          seller_id: sellerId,
          roles: input.roles,
          ...row,
        });
        if (row.email !== null)
          await invite(mail, tx, {
            delegateId: id,
            email: row.email,
            senderId: caller.id,
          });
        const stored = (await delegates.find(sellerId, id))!;
        // New roles for a delegate: what it made with a capability they no longer grant ends.
        const ended =
          !created &&
          stored.user_id !== null &&
          (await endWhatItMade(madeWith, tx, {
            sellerId,
            userId: stored.user_id,
            roles: stored.roles,
          }));
        const outcome = {
          status: created ? (201 as const) : (200 as const),
          body: toDelegateView(stored),
        };
        await record?.(tx, outcome);
        return { userId: stored.user_id, ended, result: outcome };
      });
    },

    /**
     * A list of delegates the caller may not see is empty, never an error (the
     * specification's rule for lists), and the same for a seller that does not exist.
     */
    async list(caller: Caller, sellerId: string, query: Record<string, unknown>) {
      const allowed =
        accessOf(caller).can('delegates', sellerId) && (await users.isSeller(db, sellerId));
      return runList(
        delegateList,
        {
          path: `/api/users/${sellerId}/delegates`,
          query,
          scope: { anyOf: allowed ? [{ field: 'seller', in: [sellerId] }] : [] },
        },
        repo.listSource(),
        (rows) => rows.map(toDelegateView),
      );
    },

    async get(caller: Caller, sellerId: string, id: string): Promise<DelegateView> {
      const row = await repo.find(sellerId, id);
      // The delegate itself may read its own delegation.
      if (row && row.user_id === caller.id) return toDelegateView(row);
      await managedSeller(caller, sellerId);
      if (!row) throw notFound(`Delegate ${id}`);
      return toDelegateView(row);
    },

    /**
     * Whoever holds the invitation's token (so controls the invited mailbox) accepts it with
     * the account it is signed in with, whatever that account's own address: the account
     * becomes the delegate and the seller sees who it is. A wrong, spent or expired token is
     * the same 404 as an unknown invitation.
     */
    async accept(
      caller: Caller,
      sellerId: string,
      id: string,
      token: string,
    ): Promise<DelegateView> {
      return changing(async (tx) => {
        const delegates = delegatesRepository(tx);
        const pending = await delegates.lockPendingInvitation(sellerId, id);
        const matches = pending !== undefined && invitationTokenMatches(token, pending.digest);
        if (!matches || !pending.live) throw notFound(`Delegate ${id}`);
        if (caller.id === sellerId) throw ownDelegate('token');
        try {
          await delegates.accept(sellerId, id, caller.id);
        } catch (error) {
          if (!isUniqueViolation(error, 'delegates_seller_user')) throw error;
          throw new DomainError(
            'already_delegate',
            `Your account is already a delegate of seller ${sellerId}; the seller may change its roles instead.`,
          );
        }
        return { userId: caller.id, result: toDelegateView((await delegates.find(sellerId, id))!) };
      });
    },

    /**
     * Ends the delegation and what the delegate made with it. A guide profile linked to its
     * user stays linked, on purpose: the profile is the seller's, not the delegate's, and the
     * link grants nothing by itself (seeing and answering a guide's events needs a current
     * ROLE_GUIDE delegation at the profile's seller, read at each request); it keeps the
     * history older API versions show (their events name guides by user id), and a guide
     * added back later needs no relinking. The seller unlinks with `PUT` `user: null`
     * (docs/guides.md, "Who").
     */
    async remove(caller: Caller, sellerId: string, id: string): Promise<void> {
      await managedSeller(caller, sellerId);
      await changing(async (tx) => {
        const removed = await delegatesRepository(tx).remove(sellerId, id);
        if (!removed) throw notFound(`Delegate ${id}`);
        const ended =
          removed.user_id !== null &&
          (await endWhatItMade(madeWith, tx, { sellerId, userId: removed.user_id, roles: [] }));
        return { userId: removed.user_id, ended, result: undefined };
      });
    },
  };
}

export type DelegatesService = ReturnType<typeof delegatesService>;
