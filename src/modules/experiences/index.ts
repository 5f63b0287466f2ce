/** The experiences module's public surface: the only file other code imports from it. */
export { Experience, type ExperienceView } from './experiences.schemas.js';
export { experiencesModule } from './experiences.module.js';
export { experiencesFacade, type ExperiencesFacade } from './experiences.facade.js';
export type {
  BookableExperience,
  GuidePreferences,
  StoredDemographic,
} from './experiences.schemas.js';
export { experienceList } from './experiences.list.js';
export { experienceEvents } from './experiences.events.js';
