/**
 * The one place that decides what a caller may do with a seller's data, as pure functions
 * of the caller (its account roles and the delegations read when it authenticated). A
 * caller acts for a seller when it is that seller (an account with ROLE_SELLER) or one of
 * its delegates with a role that grants the capability (roles.ts); admins act for everyone.
 * Services ask here before acting; list scopes are built from `sellersFor`.
 */
import { isAdmin, type Caller } from './caller.js';
import { DomainError, notFound } from './errors.js';
import { CAPABILITIES, type Capability } from './roles.js';

export type Sellers = 'all' | readonly string[];

export interface Access {
  readonly caller: Caller;
  /** Sellers the caller may act for with `capability`. */
  sellersFor(capability: Capability): Sellers;
  can(capability: Capability, sellerId: string): boolean;
  /**
   * Throws unless the caller may use `capability` on `sellerId`'s data: 404 when the caller
   * may not even see the object (`visible: false`), else 403.
   */
  require(capability: Capability, sellerId: string, what: string, visible?: boolean): void;
  /** Whether the caller is a delegate with `role` at any seller. */
  holdsRole(role: string): boolean;
}

export function accessOf(caller: Caller): Access {
  const access: Access = {
    caller,
    sellersFor(capability) {
      if (isAdmin(caller)) return 'all';
      const granted = CAPABILITIES[capability] as readonly string[];
      const sellers = caller.roles.includes('ROLE_SELLER') ? [caller.id] : [];
      for (const [sellerId, roles] of caller.delegations) {
        if (roles.some((role) => granted.includes(role))) sellers.push(sellerId);
      }
      return sellers;
    },
    can(capability, sellerId) {
      const sellers = access.sellersFor(capability);
      return sellers === 'all' || sellers.includes(sellerId);
    },
    require(capability, sellerId, what, visible = true) {
      if (access.can(capability, sellerId)) return;
      if (!visible) throw notFound(what);
      throw new DomainError(
        'forbidden',
        `You may not manage ${what} (it needs the seller or a delegate with ${CAPABILITIES[capability].join(' or ')}).`,
      );
    },
    holdsRole: (role) => [...caller.delegations.values()].some((roles) => roles.includes(role)),
  };
  return access;
}
