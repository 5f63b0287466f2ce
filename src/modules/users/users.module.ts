/**
 * The users module assembled: accounts, API keys and metadata (routes and service), the
 * authentication of credentials into a caller, and the facade other modules call.
 */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { authenticationService, type AuthenticationService } from './authentication.service.js';
import { createBasicAuthCache } from './basic-auth-cache.js';
import { usersFacade, type UsersFacade } from './users.facade.js';
import { usersRoutes } from './users.routes.js';
import { ApiKey, Metadata, User } from './users.schemas.js';
import { usersService, type UsersService } from './users.service.js';

export interface UsersModule extends ResourceModule<UsersFacade> {
  /** Credentials to caller, for the authentication hook. */
  readonly authentication: AuthenticationService;
  /** The service itself, for the trusted path (the CLI creates admins). */
  readonly service: UsersService;
}

export function usersModule(deps: {
  db: Db;
  cipher: ApiKeyCipher;
  latestVersion: string;
}): UsersModule {
  const service = usersService(deps);
  return {
    name: 'users',
    schemas: [User, ApiKey, Metadata],
    routes: (app) => usersRoutes(app, { users: service }),
    facade: usersFacade,
    authentication: authenticationService({ db: deps.db, cache: createBasicAuthCache() }),
    service,
  };
}
