/**
 * The Delegate object (its schema, view type, and how a row becomes it) and the request
 * bodies of the delegates endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Ref, Timestamp, listOf } from '../../http/schemas.js';
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
    user: Type.Object({ id: Id, name: Type.String(), email: Type.String() }),
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
      Type.String({ format: 'email', maxLength: 254, description: 'An existing user, by email' }),
    ),
    user: Type.Optional(Ref),
    roles: DelegateRoles,
  },
  { additionalProperties: false, description: 'Give exactly one of email or user' },
);

export const SellerParams = Type.Object({ id: Id });
export const DelegateParams = Type.Object({ id: Id, delegateId: Id });

export function toDelegateView(row: DelegateRow): DelegateView {
  return {
    object: 'delegate',
    id: row.id,
    seller: ref(row.seller_id),
    user: { id: row.user_id, name: row.user_name, email: row.user_email },
    roles: row.roles,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
