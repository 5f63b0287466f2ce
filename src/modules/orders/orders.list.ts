/** The filterable and sortable fields of orders and their items (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Order } from './orders.schemas.js';

export const orderList = defineListSpec(Order, {
  resource: 'orders',
  table: 'orders',
  alias: 'o',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: { sql: 'seller_id', itemSql: 'seller_id' },
    customer: { sql: 'customer_id', itemSql: 'customer_id' },
    customerName: { sql: 'customer_name', sortable: true },
    customerEmail: 'customer_email',
    phone: 'phone',
    source: 'source',
    shortCode: 'short_code',
    status: 'status',
    arrival: { sql: 'arrival', sortable: true },
    amount: { sql: 'amount', sortable: true },
    createdAt: { sql: 'created_at', sortable: true },
    updatedAt: { sql: 'updated_at', sortable: true },
    'items.arrival': 'arrival',
    'items.arrivalTime': 'arrival_time',
    'items.experience': 'experience_id',
    'items.event': 'event_id',
    'items.quantity': 'quantity',
    'items.status': 'status',
    'items.ticketCode': 'ticket_code',
  },
  items: { prefix: 'items', table: 'order_items', alias: 'i', parentColumn: 'order_id' },
});
