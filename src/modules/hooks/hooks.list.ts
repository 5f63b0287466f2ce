/** The filterable and sortable fields of a user's hooks and of a hook's deliveries. */
import { defineListSpec } from '../../query/list-spec.js';
import { Hook, WebhookDelivery } from './hooks.schemas.js';

export const hookList = defineListSpec(Hook, {
  resource: 'hooks',
  table: 'hooks',
  alias: 'h',
  fields: {
    id: { sql: 'id', sortable: true },
    user: 'owner_id',
    eventName: 'event_name',
    url: 'url',
    status: 'status',
    createdAt: { sql: 'created_at', sortable: true },
  },
});

export const deliveryList = defineListSpec(WebhookDelivery, {
  resource: 'deliveries',
  table: 'webhook_deliveries',
  alias: 'w',
  fields: {
    id: { sql: 'id', sortable: true },
    hook: 'hook_id',
    status: 'status',
    createdAt: { sql: 'created_at', sortable: true },
  },
});
