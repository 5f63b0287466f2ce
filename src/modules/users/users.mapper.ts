/** Turns user rows into the API's User object. */
import type { UserRow } from './users.repository.js';
import type { UserView } from './users.schemas.js';

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
