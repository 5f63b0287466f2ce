/**
 * Translating between guide ids and the user ids that clients before v2018-02-26 used for
 * guides: the guide profile linked to a user at a seller, created on demand for the seller's
 * delegates (as that version's assignment endpoint promised).
 */
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { notFound } from '../../http/errors.js';
import { usersRepository } from '../users/users.repository.js';
import { guidesRepository } from './guides.repository.js';

/** The guide profile of a delegate user at a seller, created (without schedules) if missing. */
export async function guideOfDelegate(db: Db, sellerId: string, userId: string): Promise<string> {
  const guides = guidesRepository(db);
  const existing = await guides.findByUser(sellerId, userId);
  if (existing) return existing.id;
  const delegate = await db
    .selectFrom('delegates')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const user = delegate && (await usersRepository(db).findById(userId));
  if (!user) throw notFound(`A delegate with user id ${userId} at this seller`);
  try {
    const created = await guides.insert({
      id: newId(),
      seller_id: sellerId,
      user_id: userId,
      name: user.name,
      email: user.email,
      schedules: '[]',
    });
    return created.id;
  } catch (error) {
    // Two first assignments of the same delegate at once: one profile wins, use it.
    if (isUniqueViolation(error, 'guides_seller_user'))
      return (await guides.findByUser(sellerId, userId))!.id;
    throw error;
  }
}

/** The guide id of a user at a seller, if it has a profile (no creation). */
export async function guideOfUser(
  db: Db,
  sellerId: string,
  userId: string,
): Promise<string | undefined> {
  return (await guidesRepository(db).findByUser(sellerId, userId))?.id;
}

/** Guide id -> linked user id, for the guides that have one. */
export async function usersOfGuides(
  db: Db,
  guideIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await guidesRepository(db).findMany(guideIds);
  return new Map(rows.flatMap((r) => (r.user_id ? [[r.id, r.user_id] as const] : [])));
}
