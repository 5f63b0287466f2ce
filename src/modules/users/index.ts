/** The users module's public surface: the only file other code imports from it. */
export { Metadata, User, type UserView } from './users.schemas.js';
export { usersModule, type UsersModule } from './users.module.js';
export { usersFacade, type Account, type UsersFacade } from './users.facade.js';
export type { AuthenticationService } from './authentication.service.js';
export {
  announceCallerChange,
  createCallerCache,
  type CallerCache,
  type CredentialCache,
} from './caller-cache.js';
export { userEvents } from './users.events.js';
