/**
 * The one place that decides what a caller may do with a seller's data. A caller acts for
 * a seller when it is that seller (an account with ROLE_SELLER) or one of its delegates
 * with a role that grants the capability (roles.ts); admins act for everyone. Routes and
 * list scopes both ask here. Delegations are read once per request.
 */
import type { Db } from '../../db/database.js';
import { ApiError, notFound } from '../../http/errors.js';
import { guidesRepository } from '../guides/guides.repository.js';
import { isAdmin, type Caller } from '../users/caller.js';
import { CAPABILITIES, type Capability, type DelegateRole } from './roles.js';

export type Sellers = 'all' | readonly string[];

export interface Access {
  readonly caller: Caller;
  /** Sellers the caller may act for with `capability`. */
  sellersFor(capability: Capability): Promise<Sellers>;
  can(capability: Capability, sellerId: string): Promise<boolean>;
  /**
   * Throws unless the caller may use `capability` on `sellerId`'s data: 404 when the caller
   * may not even see the object (`visible: false`), else 403.
   */
  require(capability: Capability, sellerId: string, what: string, visible?: boolean): Promise<void>;
  /** Delegate roles the caller holds at each seller. */
  delegations(): Promise<ReadonlyMap<string, readonly DelegateRole[]>>;
  /** Guide profiles linked to the caller where it is a ROLE_GUIDE delegate: it sees their events. */
  guideIds(): Promise<readonly string[]>;
}

export function accessFor(db: Db, caller: Caller): Access {
  let loaded: Promise<Map<string, DelegateRole[]>> | undefined;
  if (caller.delegations) {
    loaded = Promise.resolve(new Map(caller.delegations as Map<string, DelegateRole[]>));
  }
  const delegations = () =>
    (loaded ??= db
      .selectFrom('delegates')
      .select(['seller_id', 'roles'])
      .where('user_id', '=', caller.id)
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.seller_id, r.roles as DelegateRole[]]))));

  let guides: Promise<string[]> | undefined;
  const access: Access = {
    caller,
    delegations,
    // Only a ROLE_GUIDE delegate can have any: the others (nearly every caller) skip a query.
    guideIds: () =>
      (guides ??= delegations().then((held) =>
        [...held.values()].some((roles) => roles.includes('ROLE_GUIDE'))
          ? guidesRepository(db).idsGuidedBy(caller.id)
          : [],
      )),
    async sellersFor(capability) {
      if (isAdmin(caller)) return 'all';
      const granted = CAPABILITIES[capability];
      const sellers = caller.roles.includes('ROLE_SELLER') ? [caller.id] : [];
      for (const [sellerId, roles] of await delegations()) {
        if (roles.some((role) => granted.includes(role))) sellers.push(sellerId);
      }
      return sellers;
    },
    async can(capability, sellerId) {
      const sellers = await access.sellersFor(capability);
      return sellers === 'all' || sellers.includes(sellerId);
    },
    async require(capability, sellerId, what, visible = true) {
      if (await access.can(capability, sellerId)) return;
      if (!visible) throw notFound(what);
      throw new ApiError(
        'forbidden',
        `You may not manage ${what} (it needs the seller or a delegate with ${CAPABILITIES[capability].join(' or ')}).`,
      );
    },
  };
  return access;
}
