/**
 * The Affiliate object (Xola's name for a reseller a seller works with): a named Bearer
 * credential for OCTo (`/octo`), its commission, when it was made and revoked; and the
 * request body that issues one. The secret is in the answer to the create only (`apiKey`).
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { iso, ref, refOrNull } from '../shared/index.js';
import type { ResellerCredentialRow } from './resellers.repository.js';

const Commission = Type.Object(
  {
    amount: Type.Number({
      minimum: 0,
      maximum: 100,
      multipleOf: 0.01,
      description: 'A percentage of the retail price, two decimals at most (12.5 is 12.5 %)',
    }),
    amountType: Type.Literal('percent'),
  },
  { additionalProperties: false },
);

export const Affiliate = Type.Object(
  {
    object: Type.Literal('affiliate'),
    id: Id,
    seller: Ref,
    name: Type.String({ description: 'Its bookings show it as their `source`' }),
    commission: Nullable({
      ...Commission,
      description: 'What OCTo net prices take off retail (octo/pricing); null: none',
    }),
    createdBy: Nullable({
      ...Ref,
      description:
        'The user who made it: the seller, a seller-admin delegate (whose credentials are revoked when the delegation ends, docs/security.md) or an admin; null if made before this was recorded',
    }),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
  },
  { $id: 'Affiliate' },
);
export type AffiliateView = Static<typeof Affiliate>;

export const CreatedAffiliate = Type.Object(
  {
    ...Affiliate.properties,
    apiKey: Type.String({
      description:
        'The credential, shown this once: sent to /octo as `Authorization: Bearer <apiKey>`',
    }),
  },
  { $id: 'CreatedAffiliate' },
);
export type CreatedAffiliateView = Static<typeof CreatedAffiliate>;
export const AffiliateList = listOf(Affiliate);

export const CreateAffiliateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. "Klook"' }),
    commission: Type.Optional(
      Nullable(
        Type.Object(
          {
            amount: Commission.properties.amount,
            amountType: Type.Optional(Type.Literal('percent')),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateAffiliateInput = Static<typeof CreateAffiliateBody>;

export const toAffiliateView = (row: ResellerCredentialRow): AffiliateView => ({
  object: 'affiliate',
  id: row.id,
  seller: ref(row.seller_id),
  name: row.name,
  commission:
    row.commission_bps === null
      ? null
      : { amount: row.commission_bps / 100, amountType: 'percent' },
  createdBy: refOrNull(row.created_by),
  createdAt: iso(row.created_at),
  revokedAt: row.revoked_at && iso(row.revoked_at),
});
