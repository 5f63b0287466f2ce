/**
 * An experience's guide preferences (`/api/experiences/{id}/guide`: how many guides it
 * needs, whether they are assigned automatically and named in the confirmation): created
 * once, then changed, by whoever manages the experience or the seller's guides; each an
 * `experience.update`.
 */
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { changeLocked, visible, type ExperiencesContext } from './experiences.context.js';
import { experiencesRepository } from './experiences.repository.js';

type ExperiencesRepository = ReturnType<typeof experiencesRepository>;
import {
  toExperienceView,
  type ExperienceRow,
  type ExperienceView,
} from './experiences.schemas.js';

/** Guide preferences as a request gives them (the view's `guide`, every member optional). */
export interface GuidePreferencesInput {
  required?: number;
  autoAssign?: boolean;
  includeInConfirmation?: boolean;
}

/**
 * Writes the guide preferences under the experience's lock, if the caller manages the
 * experience or the seller's guides; `write` answers with the row, or nothing when it
 * wrote nothing (then no event).
 */
async function writePreferences(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  write: (experiences: ExperiencesRepository) => Promise<ExperienceRow | undefined>,
): Promise<ExperienceRow | undefined> {
  const current = await visible(ctx, caller, id);
  const access = accessOf(caller);
  if (!access.can('guides', current.seller_id)) {
    access.require('experiences', current.seller_id, `experience ${id}`);
  }
  return changeLocked(ctx, caller, id, async (tx) => {
    const row = await write(experiencesRepository(tx));
    return { row, result: row };
  });
}

/** Guide preferences: created once (409 after), then changed with updateGuide. */
export async function createGuide(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  input: GuidePreferencesInput,
): Promise<ExperienceView> {
  const row = await writePreferences(ctx, caller, id, (experiences) =>
    experiences.createGuidePreferences(id, {
      required: input.required ?? 0,
      autoAssign: input.autoAssign ?? false,
      includeInConfirmation: input.includeInConfirmation ?? false,
    }),
  );
  if (!row) {
    throw new DomainError(
      'guide_preferences_exist',
      'This experience already has guide preferences; change them with PUT.',
    );
  }
  return toExperienceView(row);
}

export async function updateGuide(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  input: GuidePreferencesInput,
): Promise<ExperienceView> {
  const row = await writePreferences(ctx, caller, id, (experiences) =>
    experiences.updateGuidePreferences(id, { ...input }),
  );
  if (!row) throw notFound(`Guide preferences of experience ${id}`);
  return toExperienceView(row);
}
