/** Request and response schemas of the orders endpoints. */
import { Type } from 'typebox';
import { Id, Nullable, Ref, Timestamp } from '../../http/schemas.js';

export const OrderItem = Type.Object({
  id: Id,
  experience: Ref,
  event: Ref,
  name: Type.String({ description: "The experience's name when booked" }),
  arrival: Type.String({ description: 'YYYY-MM-DD' }),
  arrivalTime: Type.Integer({ description: 'HHMM' }),
  arrivalDatetime: Type.String({ description: 'ISO 8601 with the local offset' }),
  quantity: Type.Integer(),
  price: Type.Number(),
  amount: Type.Number(),
  status: Type.Integer({ description: '200 confirmed, 700 canceled' }),
});

export const Order = Type.Object(
  {
    object: Type.Literal('order'),
    id: Id,
    seller: Ref,
    customer: Nullable(Ref),
    customerName: Type.String(),
    customerEmail: Nullable(Type.String()),
    status: Type.Enum(['confirmed', 'canceled']),
    arrival: Type.String({ description: 'Earliest item date' }),
    amount: Type.Number(),
    currency: Type.String(),
    items: Type.Array(OrderItem),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Order' },
);
