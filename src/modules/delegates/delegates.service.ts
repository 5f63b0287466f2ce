/**
 * Delegates: users a seller lets act for it within roles. Managed by the seller, its
 * ROLE_SELLER_ADMIN delegates and admins. Adding an existing delegate replaces its roles.
 * A delegation by email is an invitation: it names no account until someone accepts it with
 * the secret token its email carries (docs/security.md, "Invitations").
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
import {
  INVITATION_LIFETIME_MS,
  generateInvitationToken,
  invitationDigest,
  invitationTokenMatches,
} from '../../security/invitation-tokens.js';
import { announceCallerChange, usersFacade as users } from '../users/index.js';
import { delegatesFacade } from './delegates.facade.js';
import { delegateList } from './delegates.list.js';
import { type DelegateView, toDelegateView } from './delegates.schemas.js';
import { delegatesRepository } from './delegates.repository.js';

export interface NewDelegate {
  email?: string;
  user?: { id: string };
  roles: string[];
}

/** What the invitation email needs: mail/ seals the token into the outbox row. */
export interface InvitationToSend {
  delegateId: string;
  recipient: string;
  /** The account that invited (the seller or its seller-admin). */
  senderId: string;
  token: string;
}

/** Invitation emails in the last hour, and when the oldest leaves it (mail/'s count). */
export interface RecentInvitations {
  seller: { count: number; freeInMs: number };
  invitation: { count: number; freeInMs: number };
}

/**
 * Invitation emails per hour: to one invitation (its address; sending again to correct the
 * roles is fine, a loop is a mail bomb), and from one seller. Anyone may sign up as a seller
 * and invite any address, and the email goes from the service's own sender.
 */
export const INVITATIONS_PER_ADDRESS_PER_HOUR = 3;
export const INVITATIONS_PER_SELLER_PER_HOUR = 30;

export interface DelegatesServiceDeps {
  db: Db;
  /** Queues the invitation email in the invitation's transaction (app.ts passes mail/'s). */
  sendInvitation: (tx: Tx, invitation: InvitationToSend) => Promise<void>;
  /** The seller's invitation emails of the last hour, counted under the seller's lock. */
  recentInvitations: (tx: Tx, sellerId: string, delegateId: string) => Promise<RecentInvitations>;
  /** Whether a user booked with a seller (the orders module's; app.ts passes it in). */
  hasBookedWith: (db: Executor, userId: string, sellerId: string) => Promise<boolean>;
  /** After a user's delegations changed: this instance forgets its cached key (others are notified). */
  callersChanged?: (userId: string) => void;
}

export function delegatesService({
  db,
  sendInvitation,
  recentInvitations,
  hasBookedWith,
  callersChanged = () => undefined,
}: DelegatesServiceDeps) {
  const repo = delegatesRepository(db);

  /**
   * Runs a change of delegations in a transaction that tells every instance whose access
   * changed (the delegation's user, if it has one), then forgets it here.
   */
  async function changing<T>(work: (tx: Tx) => Promise<{ userId: string | null; result: T }>) {
    const { userId, result } = await inTransaction(db, async (tx) => {
      const done = await work(tx);
      if (done.userId) await announceCallerChange(tx, done.userId);
      return done;
    });
    if (userId) callersChanged(userId);
    return result;
  }

  /** The seller, if it exists and the caller may manage its delegates. */
  async function managedSeller(caller: Caller, sellerId: string): Promise<void> {
    if (!(await users.isSeller(db, sellerId))) throw notFound(`Seller ${sellerId}`);
    accessOf(caller).require('delegates', sellerId, `the delegates of seller ${sellerId}`);
  }

  /** 429: the invitation is not made nor changed (its transaction rolls back). */
  const tooManyInvitations = (detail: string, freeInMs: number) =>
    new DomainError('rate_limited', `Too many invitations: ${detail}; retry later.`, {
      retryAfter: Math.max(1, Math.ceil(freeInMs / 1000)),
    });

  const ownDelegate = (name: string) =>
    new DomainError('validation_failed', 'A seller cannot be its own delegate.', {
      errors: [{ in: 'body', name, detail: 'is the seller itself' }],
    });

  /**
   * A fresh token for an invitation not accepted yet (any earlier one is void from now on),
   * and the email that carries it, both in `tx`. An accepted invitation gets none.
   */
  async function invite(
    tx: Tx,
    sellerId: string,
    delegateId: string,
    email: string,
    senderId: string,
  ) {
    const token = generateInvitationToken();
    const issued = await delegatesRepository(tx).issueToken(
      delegateId,
      invitationDigest(token),
      INVITATION_LIFETIME_MS,
    );
    if (!issued) return;
    const recent = await recentInvitations(tx, sellerId, delegateId);
    if (recent.invitation.count >= INVITATIONS_PER_ADDRESS_PER_HOUR)
      throw tooManyInvitations(
        `this address is sent at most ${INVITATIONS_PER_ADDRESS_PER_HOUR} invitations an hour`,
        recent.invitation.freeInMs,
      );
    if (recent.seller.count >= INVITATIONS_PER_SELLER_PER_HOUR)
      throw tooManyInvitations(
        `a seller sends at most ${INVITATIONS_PER_SELLER_PER_HOUR} invitations an hour`,
        recent.seller.freeInMs,
      );
    await sendInvitation(tx, { delegateId, recipient: email, senderId, token });
  }

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
        if (row.email !== null) await invite(tx, sellerId, id, row.email, caller.id);
        const stored = (await delegates.find(sellerId, id))!;
        const outcome = {
          status: created ? (201 as const) : (200 as const),
          body: toDelegateView(stored),
        };
        await record?.(tx, outcome);
        return { userId: stored.user_id, result: outcome };
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

    async remove(caller: Caller, sellerId: string, id: string): Promise<void> {
      await managedSeller(caller, sellerId);
      await changing(async (tx) => {
        const removed = await delegatesRepository(tx).remove(sellerId, id);
        if (!removed) throw notFound(`Delegate ${id}`);
        return { userId: removed.user_id, result: undefined };
      });
    },
  };
}

export type DelegatesService = ReturnType<typeof delegatesService>;
