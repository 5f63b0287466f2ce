/**
 * The Resource object (a boat, a van: seats shared by the departures of the experiences that
 * use it, docs/resources.md), its list envelope, the request bodies, and how a row becomes it.
 */
import type { Selectable } from 'kysely';
import { Type, type Static } from 'typebox';
import type { ResourcesTable } from '../../db/types.js';
import { Id, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { iso, ref } from '../shared/index.js';

/** The most seats a resource may have (the column's check). */
export const MAX_RESOURCE_CAPACITY = 100_000;

export const Resource = Type.Object(
  {
    object: Type.Literal('resource'),
    id: Id,
    seller: Ref,
    name: Type.String(),
    capacity: Type.Integer({
      description: 'Seats at any one moment, shared by every departure that uses it',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Resource' },
);
export type ResourceView = Static<typeof Resource>;
export const ResourceList = listOf(Resource);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200, description: 'e.g. "Boat Marie-Louise"' }),
  capacity: Type.Integer({ minimum: 0, maximum: MAX_RESOURCE_CAPACITY }),
};

export const CreateResourceBody = Type.Object(
  {
    seller: Type.Optional(
      Type.Object({ id: Id }, { additionalProperties: false, description: 'Default: the caller' }),
    ),
    ...fields,
  },
  { additionalProperties: false },
);
export type CreateResourceInput = Static<typeof CreateResourceBody>;

export const UpdateResourceBody = Type.Object(
  { name: Type.Optional(fields.name), capacity: Type.Optional(fields.capacity) },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);
export type UpdateResourceInput = Static<typeof UpdateResourceBody>;

export type ResourceRow = Selectable<ResourcesTable>;

export const toResourceView = (row: ResourceRow): ResourceView => ({
  object: 'resource',
  id: row.id,
  seller: ref(row.seller_id),
  name: row.name,
  capacity: row.capacity,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
