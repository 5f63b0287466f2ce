/** The filterable and sortable fields of orders and their items (DESIGN.md section 9). */
import type { ResourceSpec } from '../../query/types.js';
import { refId } from '../shared/views.js';

type O = Record<string, unknown>;

export const orderSpec: ResourceSpec = {
  resource: 'orders',
  table: 'orders',
  alias: 'o',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o: O) => o.id, sortable: true },
    {
      name: 'seller',
      type: 'id',
      sql: 'seller_id',
      itemSql: 'seller_id',
      read: (o: O) => refId(o.seller),
    },
    {
      name: 'customer',
      type: 'id',
      sql: 'customer_id',
      itemSql: 'customer_id',
      read: (o: O) => refId(o.customer),
    },
    {
      name: 'customerName',
      type: 'string',
      sql: 'customer_name',
      read: (o: O) => o.customerName,
      sortable: true,
    },
    {
      name: 'customerEmail',
      type: 'string',
      sql: 'customer_email',
      read: (o: O) => o.customerEmail,
    },
    {
      name: 'status',
      type: 'enum',
      enumValues: ['confirmed', 'canceled'],
      sql: 'status',
      read: (o: O) => o.status,
    },
    { name: 'arrival', type: 'date', sql: 'arrival', read: (o: O) => o.arrival, sortable: true },
    { name: 'amount', type: 'number', sql: 'amount', read: (o: O) => o.amount, sortable: true },
    {
      name: 'createdAt',
      type: 'datetime',
      sql: 'created_at',
      read: (o: O) => o.createdAt,
      sortable: true,
    },
    {
      name: 'updatedAt',
      type: 'datetime',
      sql: 'updated_at',
      read: (o: O) => o.updatedAt,
      sortable: true,
    },
    { name: 'items.arrival', type: 'date', sql: 'arrival', item: true, read: (i: O) => i.arrival },
    {
      name: 'items.arrivalTime',
      type: 'integer',
      sql: 'arrival_time',
      item: true,
      read: (i: O) => i.arrivalTime,
    },
    {
      name: 'items.experience',
      type: 'id',
      sql: 'experience_id',
      item: true,
      read: (i: O) => refId(i.experience),
    },
    {
      name: 'items.event',
      type: 'id',
      sql: 'event_id',
      item: true,
      read: (i: O) => refId(i.event),
    },
    {
      name: 'items.quantity',
      type: 'integer',
      sql: 'quantity',
      item: true,
      read: (i: O) => i.quantity,
    },
    { name: 'items.status', type: 'integer', sql: 'status', item: true, read: (i: O) => i.status },
  ],
  items: {
    prefix: 'items',
    table: 'order_items',
    alias: 'i',
    parentColumn: 'order_id',
    read: (o: O) => o.items as O[],
  },
};
