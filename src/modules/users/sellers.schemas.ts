/**
 * The Seller object: a seller's public profile, with the roles the caller holds at it (so a
 * delegate discovers the sellers it may act for) and, for its staff, its email.
 */
import { Type, type Static } from 'typebox';
import { Id, listOf } from '../../http/schemas.js';

export const Seller = Type.Object(
  {
    object: Type.Literal('seller'),
    id: Id,
    name: Type.String(),
    email: Type.Optional(Type.String({ description: "The seller's staff only" })),
    roles: Type.Array(Type.String(), {
      description:
        "The caller's roles at this seller: ROLE_SELLER for the seller itself, its delegate roles, or none",
    }),
  },
  { $id: 'Seller' },
);
export type SellerView = Static<typeof Seller>;
export const SellerList = listOf(Seller);
