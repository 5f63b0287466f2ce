/**
 * The users module assembled: accounts, API keys and metadata, sellers (routes and
 * services), the
 * authentication of credentials into a caller, and the facade other modules call.
 */
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { authenticationService, type AuthenticationService } from './authentication.service.js';
import { createBasicAuthCache } from './basic-auth-cache.js';
import { usersFacade, type UsersFacade } from './users.facade.js';
import { usersRoutes } from './users.routes.js';
import { sellersRoutes } from './sellers.routes.js';
import { Seller, SellerList } from './sellers.schemas.js';
import { sellersService } from './sellers.service.js';
import { ApiKey, Metadata, User } from './users.schemas.js';
import { usersService, type UsersService, type UsersServiceDeps } from './users.service.js';

export interface UsersModule extends ResourceModule<UsersFacade> {
  /** Credentials to caller, for the authentication hook. */
  readonly authentication: AuthenticationService;
  /** The service itself, for the trusted path (the CLI creates admins). */
  readonly service: UsersService;
}

export function usersModule(
  deps: UsersServiceDeps & { idempotency: IdempotencyService },
): UsersModule {
  const service = usersService(deps);
  const sellers = sellersService({ db: deps.db });
  const callers = deps.callers;
  return {
    name: 'users',
    schemas: [User, ApiKey, Metadata, Seller, SellerList],
    routes: async (app) => {
      await usersRoutes(app, { users: service, idempotency: deps.idempotency });
      await sellersRoutes(app, { sellers });
    },
    facade: usersFacade,
    expanders: { seller: (_db, caller, ids) => sellers.views(caller, ids) },
    authentication: authenticationService({
      db: deps.db,
      cache: createBasicAuthCache(),
      ...(callers ? { callers } : {}),
    }),
    service,
    // The cache's LISTEN connection, closed before the database.
    close: async () => callers?.close(),
  };
}
