/** The guides module's public surface: the only file other code imports from it. */
export { Guide, GuideSchedule, type GuideView } from './guides.schemas.js';
export { guidesModule } from './guides.module.js';
export { guidesFacade, type GuidesFacade } from './guides.facade.js';
export type { GuideScope } from './guides.repository.js';
export type { GuideProfile } from './guides.schemas.js';
export { unavailability } from './guide-availability.js';
export { guideList } from './guides.list.js';
export { guideEvents } from './guides.events.js';
