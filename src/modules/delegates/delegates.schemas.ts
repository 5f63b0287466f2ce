/**
 * The Delegate object (its schema, view type, and how a row becomes it) and the request
 * bodies of the delegates endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { DELEGATE_ROLES } from '../../domain/roles.js';
import { iso, ref } from '../shared/index.js';
import type { DelegateRow } from './delegates.repository.js';

export const DelegateRoles = Type.Array(Type.Enum([...DELEGATE_ROLES]), {
  minItems: 1,
  maxItems: DELEGATE_ROLES.length,
  uniqueItems: true,
});

export const Delegate = Type.Object(
  {
    object: Type.Literal('delegate'),
    id: Id,
    seller: Ref,
    user: Type.Object(
      {
        id: Nullable(Id),
        name: Nullable(Type.String()),
        email: Type.String(),
      },
      {
        description:
          'Added by user id, or invited by email and accepted: who the user is (the account that accepted, whose address may differ from the one invited). Invited and not accepted: the address as given only (id and name null)',
      },
    ),
    roles: Type.Array(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Delegate' },
);
export type DelegateView = Static<typeof Delegate>;
export const DelegateList = listOf(Delegate);

export const CreateDelegateBody = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description:
          'Invite by address: an email with a secret token goes to it, and the account that accepts with that token becomes the delegate. Inviting the address again sends a new token; the earlier one stops working',
      }),
    ),
    user: Type.Optional(
      Type.Object(
        { id: Id },
        {
          additionalProperties: false,
          description: 'A user who already booked with the seller or is its delegate',
        },
      ),
    ),
    roles: DelegateRoles,
  },
  { additionalProperties: false, description: 'Give exactly one of email or user' },
);

export const AcceptDelegationBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        'The token of the invitation email: it works once, for this invitation only, for 7 days from the (latest) invitation',
    }),
  },
  { additionalProperties: false },
);

export const SellerParams = Type.Object({ id: Id });
export const DelegateParams = Type.Object({ id: Id, delegateId: Id });

/**
 * Whether the seller may see who the delegate is: it added the user by id (which needs a
 * prior relationship), or the user invited by email accepted. Until then a delegation by
 * email says nothing of which account has that address, nor whether one does.
 */
export const isDisclosed = (row: Pick<DelegateRow, 'email' | 'user_id' | 'accepted_at'>) =>
  row.user_id !== null && (row.email === null || row.accepted_at !== null);

export function toDelegateView(row: DelegateRow): DelegateView {
  const disclosed = isDisclosed(row);
  return {
    object: 'delegate',
    id: row.id,
    seller: ref(row.seller_id),
    user: disclosed
      ? { id: row.user_id, name: row.user_name, email: row.user_email ?? '' }
      : { id: null, name: null, email: row.email ?? '' },
    roles: row.roles,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
