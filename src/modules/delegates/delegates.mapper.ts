/** Turns delegate rows into the API's Delegate object. */
import { iso, ref, type Ref } from '../shared/views.js';
import type { DelegateRow } from './delegates.repository.js';

export interface DelegateView {
  object: 'delegate';
  id: string;
  seller: Ref;
  user: { id: string; name: string; email: string };
  roles: string[];
  createdAt: string;
  updatedAt: string;
}

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
