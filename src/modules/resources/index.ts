/** The resources module's public surface: the only file other code imports from it. */
export { Resource, type ResourceView } from './resources.schemas.js';
export { resourcesModule } from './resources.module.js';
export {
  resourceFull,
  resourcesFacade,
  type ResourceHold,
  type ResourceUse,
  type ResourcesFacade,
} from './resources.facade.js';
export { resourceList } from './resources.list.js';
