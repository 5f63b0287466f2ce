/** The delegates module's public surface: the only file other code imports from it. */
export { Delegate, type DelegateView } from './delegates.schemas.js';
export { delegatesModule } from './delegates.module.js';
export {
  delegatesFacade,
  type DelegatesFacade,
  type PendingInvitation,
} from './delegates.facade.js';
export { delegateList } from './delegates.list.js';
