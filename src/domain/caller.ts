/**
 * Who is making a request: the authenticated user as the rest of the service sees it,
 * and the account roles.
 */
export const ACCOUNT_ROLES = ['ROLE_DEVELOPER', 'ROLE_SELLER', 'ROLE_ADMIN'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Roles a new account may give itself; ROLE_ADMIN is granted only from the CLI. */
export const SELF_ASSIGNABLE_ROLES = ['ROLE_SELLER', 'ROLE_DEVELOPER'] as const;
export const DEFAULT_ROLES: AccountRole[] = ['ROLE_DEVELOPER'];

export interface Caller {
  readonly id: string;
  /** The account's name (a customer booking for itself may leave it to the account). */
  readonly name: string;
  readonly email: string;
  readonly roles: readonly string[];
  /** The API version pinned on the account at creation. */
  readonly apiVersion: string;
  /**
   * Seller id -> the delegate roles the caller holds there, read with the account when it
   * authenticates (one query), so deciding access never needs the database.
   */
  readonly delegations: ReadonlyMap<string, readonly string[]>;
}

/**
 * A guest at a seller's checkout: a request made with one of the seller's publishable keys
 * (modules/checkout). It has no account and no rights beyond reading, quoting and booking
 * at that seller.
 */
export interface Checkout {
  readonly keyId: string;
  readonly sellerId: string;
}

/**
 * Who books through OCTo (`/octo`, modules/octo): a reseller credential a seller issued
 * (`resellerId` its id, `name` what its bookings record as their source, `commissionBps`
 * the commission that gives OCTo's net prices), or the seller itself with its own API key
 * (`resellerId` null, no commission). Either acts for that one seller only.
 */
export interface Reseller {
  readonly resellerId: string | null;
  readonly sellerId: string;
  readonly name: string;
  /** 1250 is 12.5 %; null: none (net prices are null). */
  readonly commissionBps: number | null;
}

/** The id an OCTo booking records as its booker: the credential's, or the seller's own. */
export const bookerIdOf = (reseller: Reseller): string => reseller.resellerId ?? reseller.sellerId;

export const isAdmin = (caller: Caller): boolean => caller.roles.includes('ROLE_ADMIN');

/** Self or admin: who may read a user's private data and manage its keys. */
export const isSelfOrAdmin = (caller: Caller, userId: string): boolean =>
  caller.id === userId || isAdmin(caller);
