/**
 * Hooks: a user's (usually a seller's) webhook subscriptions. Managed by the user itself,
 * its ROLE_SELLER_ADMIN delegates and admins; everyone else gets the same 404 as for an
 * unknown user. A hook hears the events of its owner (docs/webhooks.md). Its signing secret
 * is shown on creation and on request, and can be rotated; its delivery log can be read and
 * a delivery resent. A delegate's rights are checked again when the hook is written, under
 * its delegation's lock, so a hook cannot outlive a delegation that ended meanwhile.
 */
import type { BookingEnv } from '../../config.js';
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import { isAdmin, isSelfOrAdmin, type Caller } from '../../domain/caller.js';
import { DomainError, forbidden, invalid, invalidFields, notFound } from '../../domain/errors.js';
import { CAPABILITIES } from '../../domain/roles.js';
import { runList } from '../../query/run.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { parseVersionDate } from '../../versions/registry.js';
import { delegatesFacade } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { checkResolves, urlProblems } from './destination.js';
import { PRIVATE_EVENTS } from './event-catalogue.js';
import { newSecret, openSecret, sealSecret } from './hook-secrets.js';
import { deliveryList, hookList } from './hooks.list.js';
import { hooksRepository, type HookRow } from './hooks.repository.js';
import {
  toDeliveryView,
  toHookView,
  type HookView,
  type WebhookDeliveryView,
} from './hooks.schemas.js';

export interface HooksServiceDeps {
  db: Db;
  cipher: ApiKeyCipher;
  env: BookingEnv;
  /** The version a hook renders in: the one asked for, else the caller's (registry.resolve). */
  resolveVersion: (requested: string | undefined, callerVersion: string) => string;
}

/**
 * Hooks per user: every event is sent once per listening hook, so this bounds what one
 * tenant's change can make the service send.
 */
export const MAX_HOOKS_PER_USER = 50;

export interface NewHook {
  eventName: string;
  url: string;
  apiVersion?: string;
}

export function hooksService({ db, cipher, env, resolveVersion }: HooksServiceDeps) {
  const repo = hooksRepository(db);

  /**
   * The caller may manage the user's hooks: its own, or a seller's it administers (403 for
   * its other staff, as for delegates); anyone else's user is the same 404 as an unknown one.
   */
  async function managedOwner(caller: Caller, ownerId: string): Promise<void> {
    if (caller.id === ownerId) return;
    const access = accessOf(caller);
    if (await users.isSeller(db, ownerId)) {
      access.require('hooks', ownerId, `the hooks of seller ${ownerId}`);
      return;
    }
    if (!access.can('hooks', ownerId) || !(await users.find(db, ownerId))) {
      throw notFound(`User ${ownerId}`);
    }
  }

  /**
   * A delegate still may make the owner's hooks, by its delegation as it is now (locked in
   * `tx`): the caller's delegations were read when it authenticated, and the URL's name
   * lookup since can take seconds. A hook committed after the delegation ended would outlive
   * it (what a delegate made is disabled in the transaction that ends its delegation). The
   * owner itself and admins hold their rights by their account, not by a delegation.
   */
  async function stillManages(tx: Tx, caller: Caller, ownerId: string): Promise<void> {
    if (caller.id === ownerId || isAdmin(caller)) return;
    const roles = await delegatesFacade.lockedRoles(tx, ownerId, caller.id);
    const granted: readonly string[] = CAPABILITIES.hooks;
    if (!roles?.some((role) => granted.includes(role)))
      throw forbidden(`You may no longer manage the hooks of seller ${ownerId}.`);
  }

  async function managedHook(caller: Caller, ownerId: string, id: string): Promise<HookRow> {
    await managedOwner(caller, ownerId);
    const hook = await repo.find(ownerId, id);
    if (!hook) throw notFound(`Hook ${id}`);
    return hook;
  }

  return {
    async create(
      caller: Caller,
      ownerId: string,
      input: NewHook,
      callerVersion: string,
    ): Promise<HookView & { secret: string }> {
      await managedOwner(caller, ownerId);
      // What the API shows only to the user itself or an admin, no other maker's hook hears.
      const hearsPrivate = isSelfOrAdmin(caller, ownerId);
      if (PRIVATE_EVENTS.has(input.eventName) && !hearsPrivate)
        throw forbidden(
          `Only the user itself or an admin hears ${input.eventName}: it carries the private metadata.`,
        );
      // The pattern lets 2018-02-30 through; the registry would refuse it as a header.
      if (input.apiVersion !== undefined && !parseVersionDate(input.apiVersion))
        throw invalid('body', 'apiVersion', 'must be a real date YYYY-MM-DD');
      const problems = urlProblems(input.url, env);
      const unresolvable = problems.length === 0 ? await checkResolves(input.url, env) : undefined;
      if (unresolvable) problems.push(unresolvable);
      if (problems.length > 0) {
        throw invalidFields(problems.map((detail) => ({ in: 'body', name: 'url', detail })));
      }
      const id = newId();
      const secret = newSecret();
      const row = await inTransaction(db, async (tx) => {
        const hooks = hooksRepository(tx);
        await hooks.lockOwner(ownerId);
        await stillManages(tx, caller, ownerId);
        if ((await hooks.countOf(ownerId)) >= MAX_HOOKS_PER_USER) {
          throw new DomainError(
            'too_many_hooks',
            `A user has at most ${MAX_HOOKS_PER_USER} hooks; delete one first (or use eventName "*").`,
          );
        }
        return hooks.insert({
          id,
          owner_id: ownerId,
          event_name: input.eventName,
          url: input.url,
          secret_ciphertext: sealSecret(cipher, id, secret),
          api_version: resolveVersion(input.apiVersion, callerVersion),
          hears_private: hearsPrivate,
          // A delegate's hook is disabled when its delegation ends (delegates module).
          created_by: caller.id,
        });
      });
      if (!row) {
        throw new DomainError(
          'hook_exists',
          `There is already a hook for ${input.eventName} to this URL.`,
        );
      }
      return { ...toHookView(row), secret };
    },

    async list(caller: Caller, ownerId: string, query: Record<string, unknown>) {
      await managedOwner(caller, ownerId);
      return runList(
        hookList,
        {
          path: `/api/users/${ownerId}/hooks`,
          query,
          scope: { anyOf: [{ field: 'user', in: [ownerId] }] },
        },
        repo.listSource(),
        (rows) => rows.map(toHookView),
      );
    },

    async get(caller: Caller, ownerId: string, id: string): Promise<HookView> {
      return toHookView(await managedHook(caller, ownerId, id));
    },

    async remove(caller: Caller, ownerId: string, id: string): Promise<void> {
      await managedOwner(caller, ownerId);
      if (!(await repo.remove(ownerId, id))) throw notFound(`Hook ${id}`);
    },

    async secret(caller: Caller, ownerId: string, id: string): Promise<{ secret: string }> {
      return { secret: openSecret(cipher, await managedHook(caller, ownerId, id)) };
    },

    /** A new secret, effective for every delivery signed from now on. */
    async rotateSecret(caller: Caller, ownerId: string, id: string): Promise<{ secret: string }> {
      const hook = await managedHook(caller, ownerId, id);
      const secret = newSecret();
      await repo.setSecret(hook.id, sealSecret(cipher, hook.id, secret));
      return { secret };
    },

    /** Enabled again: deliveries still pending resume; events while disabled are not sent. */
    async enable(caller: Caller, ownerId: string, id: string): Promise<HookView> {
      const hook = await managedHook(caller, ownerId, id);
      return toHookView((await repo.setStatus(hook.id, 'enabled'))!);
    },

    async deliveries(caller: Caller, ownerId: string, id: string, query: Record<string, unknown>) {
      const hook = await managedHook(caller, ownerId, id);
      return runList(
        deliveryList,
        {
          path: `/api/users/${ownerId}/hooks/${hook.id}/deliveries`,
          query,
          scope: { anyOf: [{ field: 'hook', in: [hook.id] }] },
        },
        repo.deliveriesSource(),
        async (rows) => {
          const attempts = await repo.attemptsOf(rows.map((r) => r.id));
          return rows.map((row) => toDeliveryView(row, attempts.get(row.id) ?? []));
        },
      );
    },

    /**
     * Sent again as soon as a dispatcher polls, with a fresh retry schedule; one in flight is
     * sent again once its attempt ends, never beside it (hooks.repository.ts `resend`).
     */
    async resend(
      caller: Caller,
      ownerId: string,
      id: string,
      deliveryId: string,
    ): Promise<WebhookDeliveryView> {
      const hook = await managedHook(caller, ownerId, id);
      const row = await repo.resend(hook.id, deliveryId);
      if (!row) throw notFound(`Delivery ${deliveryId}`);
      const attempts = await repo.attemptsOf([row.id]);
      return toDeliveryView(row, attempts.get(row.id) ?? []);
    },
  };
}

export type HooksService = ReturnType<typeof hooksService>;
