/** Request and response schemas of the experiences endpoints. */
import { Type } from 'typebox';
import { Id, Nullable, Ref, Timestamp } from '../../http/schemas.js';

export const Experience = Type.Object(
  {
    object: Type.Literal('experience'),
    id: Id,
    seller: Ref,
    name: Type.String(),
    desc: Type.String(),
    price: Type.Number(),
    priceType: Type.Enum(['person', 'outing']),
    currency: Type.String({ description: 'ISO 4217' }),
    duration: Type.Integer({ description: 'Minutes' }),
    timezone: Type.String({ description: 'IANA time zone' }),
    group: Type.Object({
      orderMin: Nullable(Type.Integer()),
      orderMax: Nullable(Type.Integer()),
      outingMax: Nullable(Type.Integer({ description: 'Seats per event; null = unlimited' })),
    }),
    schedules: Type.Array(Type.Unsafe({ $ref: 'Schedule#' })),
    visible: Type.Boolean(),
    guide: Type.Optional(
      Type.Object({
        required: Type.Integer(),
        autoAssign: Type.Boolean(),
        includeInConfirmation: Type.Boolean(),
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Experience' },
);
