/** Turns delegate rows into the API's Delegate object. */
import { iso, ref } from '../shared/index.js';
import type { DelegateRow } from './delegates.repository.js';
import type { DelegateView } from './delegates.schemas.js';

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
