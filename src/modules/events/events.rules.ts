/** Rules of events that are not SQL: what a refused write means to the client. */
import { isForeignKeyViolation } from '../../db/errors.js';
import { notFound } from '../../domain/errors.js';

/**
 * An event written for an experience deleted meanwhile (its foreign key refuses it) is the
 * client's 404, not a server error.
 */
export async function experienceMustExist<T>(experienceId: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error, 'events_experience_id_fkey'))
      throw notFound(`Experience ${experienceId}`);
    throw error;
  }
}
