/** The Order object and the request bodies of the orders endpoints. */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { DateString, Hhmm } from '../shared/index.js';

export const OrderItem = Type.Object({
  id: Id,
  experience: Ref,
  event: Ref,
  name: Type.String({ description: "The experience's name when booked" }),
  arrival: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
  arrivalTime: Type.Integer({ description: 'HHMM' }),
  arrivalDatetime: Type.String({
    format: 'date-time',
    description: 'ISO 8601 with the local offset',
  }),
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
    arrival: Type.String({ format: 'date', description: 'Earliest item date' }),
    amount: Type.Number(),
    currency: Type.String(),
    items: Type.Array(OrderItem),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Order' },
);
export type OrderView = Static<typeof Order>;
export type OrderItemView = Static<typeof OrderItem>;
export const OrderList = listOf(Order);

export const CreateOrderBody = Type.Object(
  {
    customer: Type.Optional(
      Type.Object(
        { id: Id },
        { additionalProperties: false, description: 'Staff only: the customer booked for' },
      ),
    ),
    customerName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "Default: the customer's name" }),
    ),
    customerEmail: Type.Optional(
      Nullable(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: "Default: the customer's email",
        }),
      ),
    ),
    items: Type.Array(
      Type.Object(
        {
          experience: Type.Object({ id: Id }, { additionalProperties: false }),
          arrival: DateString,
          arrivalTime: Hhmm,
          quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);
