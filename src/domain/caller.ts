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

export const isAdmin = (caller: Caller): boolean => caller.roles.includes('ROLE_ADMIN');

/** Self or admin: who may read a user's private data and manage its keys. */
export const isSelfOrAdmin = (caller: Caller, userId: string): boolean =>
  caller.id === userId || isAdmin(caller);
