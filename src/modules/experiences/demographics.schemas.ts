/**
 * The Demographic object (a guest type of an experience: adult, child ...) as
 * `GET /api/demographics` lists it, and how a row of the `demographics` view becomes it.
 * Guest types are written through their experience (`demographics` on create and update).
 */
import type { Selectable } from 'kysely';
import { Type, type Static } from 'typebox';
import type { DemographicsView } from '../../db/types.js';
import { Id, Ref, listOf } from '../../http/schemas.js';
import { ref } from '../shared/index.js';

export const Demographic = Type.Object(
  {
    object: Type.Literal('demographic'),
    id: Id,
    seller: Ref,
    experience: Ref,
    label: Type.String(),
    code: Type.String(),
    price: Type.Number({ description: 'Per seat, in the experience currency' }),
    currency: Type.String(),
    visible: Type.Boolean({ description: "The experience's visibility" }),
  },
  { $id: 'Demographic' },
);
export type DemographicView = Static<typeof Demographic>;
export const DemographicList = listOf(Demographic);

export type DemographicRow = Selectable<DemographicsView>;

export const toDemographicView = (row: DemographicRow): DemographicView => ({
  object: 'demographic',
  id: row.id,
  seller: ref(row.seller_id),
  experience: ref(row.experience_id),
  label: row.label,
  code: row.code,
  price: row.price,
  currency: row.currency,
  visible: row.visible,
});
