/**
 * The User object (its schema, view type, and how a row becomes it) and the request
 * bodies of the users endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Timestamp, refTo } from '../../http/schemas.js';
import { SELF_ASSIGNABLE_ROLES } from '../../domain/caller.js';
import { METADATA_LIMITS } from './metadata.rules.js';
import type { UserRow } from './users.repository.js';

export const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  $id: 'Metadata',
  description: 'Key-value pairs; keys namespaced as <company>/<application>/<key>, no "."',
});

export const User = Type.Object(
  {
    object: Type.Literal('user'),
    id: Id,
    name: Type.String(),
    email: Type.String(),
    roles: Type.Array(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    metadata: Type.Optional(refTo(Metadata)),
    apiKey: Type.Optional(Type.String({ description: 'Only on creation and on /users/me' })),
  },
  { $id: 'User' },
);
export type UserView = Static<typeof User>;

export const CreateUserBody = Type.Object(
  {
    // Stored trimmed: a name of spaces alone would be stored empty.
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
    roles: Type.Optional(
      Type.Array(Type.Enum([...SELF_ASSIGNABLE_ROLES]), {
        maxItems: 2,
        description: 'Default ROLE_DEVELOPER; ROLE_ADMIN is granted only from the CLI',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A new account's own fields, as the command line checks them (it chooses the roles itself). */
export const NewAccountFields = Type.Pick(CreateUserBody, ['name', 'email', 'password']);

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(CreateUserBody.properties.name),
    email: Type.Optional(CreateUserBody.properties.email),
    password: Type.Optional(CreateUserBody.properties.password),
    currentPassword: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'Required to change the email or the password (an admin needs none)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);

export const PrivateQuery = Type.Object({
  private: Type.Optional(Type.Boolean({ description: 'true adds metadata (self or admin)' })),
});

export const ApiKey = Type.Object({ apiKey: Type.String() }, { $id: 'ApiKey' });

export const MetadataBody = Type.Record(Type.String(), Type.Unknown(), {
  minProperties: 1,
  maxProperties: METADATA_LIMITS.maxKeys,
  description: 'One or more pairs to merge into the metadata',
});

export const MetadataParams = Type.Object({ id: Id, '*': Type.String({ maxLength: 1024 }) });

export function toUserView(
  row: UserRow,
  extras: { metadata?: boolean; apiKey?: string } = {},
): UserView {
  return {
    object: 'user',
    id: row.id,
    name: row.name,
    email: row.email,
    roles: row.roles,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(extras.metadata ? { metadata: row.metadata } : {}),
    ...(extras.apiKey !== undefined ? { apiKey: extras.apiKey } : {}),
  };
}
