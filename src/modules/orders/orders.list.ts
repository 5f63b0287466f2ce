/** The filterable and sortable fields of orders and their items (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Order } from './orders.schemas.js';

/** Booking codes match whole (an index serves that; a code's substring is not a lookup). */
const EXACT = ['equals', 'in', 'exists'] as const;

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
    shortCode: { sql: 'short_code', operators: EXACT },
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
    'items.ticketCode': { sql: 'ticket_code', operators: EXACT },
  },
  items: { prefix: 'items', table: 'order_items', alias: 'i', parentColumn: 'order_id' },
  narrowedBy: ['seller', 'customer'],
});
