/** The PublishableKey object, and the request body that creates one. */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { iso, ref, refOrNull } from '../shared/index.js';
import type { PublishableKeyRow } from './publishable-keys.repository.js';

export const PublishableKey = Type.Object(
  {
    object: Type.Literal('publishable_key'),
    id: Id,
    seller: Ref,
    key: Type.String({
      description: 'Safe to put in a web page: it can only read, quote and book (docs/security.md)',
    }),
    label: Type.String(),
    createdBy: Nullable({
      ...Ref,
      description:
        'The user who made it: the seller, a seller-admin delegate (whose keys are revoked when the delegation ends, docs/security.md) or an admin; null if made before this was recorded',
    }),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
  },
  { $id: 'PublishableKey' },
);
export type PublishableKeyView = Static<typeof PublishableKey>;
export const PublishableKeyList = listOf(PublishableKey);

export const CreatePublishableKeyBody = Type.Object(
  {
    label: Type.Optional(
      Type.String({ maxLength: 200, description: 'Where it is used, e.g. "main website"' }),
    ),
  },
  { additionalProperties: false },
);

export const toPublishableKeyView = (row: PublishableKeyRow): PublishableKeyView => ({
  object: 'publishable_key',
  id: row.id,
  seller: ref(row.seller_id),
  key: row.key,
  label: row.label,
  createdBy: refOrNull(row.created_by),
  createdAt: iso(row.created_at),
  revokedAt: row.revoked_at && iso(row.revoked_at),
});
