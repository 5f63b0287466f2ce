/**
 * The resellers module assembled: affiliates' routes over the service, the facade, and the
 * Bearer authentication the OCTo module asks (`authentication`).
 */
import type { Reseller } from '../../domain/caller.js';
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import type { CredentialCache } from '../users/index.js';
import { resellerAuthentication, type ResellerAuthentication } from './reseller-auth.js';
import { resellersFacade, type ResellersFacade } from './resellers.facade.js';
import { resellersRoutes } from './resellers.routes.js';
import { AffiliateList, CreatedAffiliate, Affiliate } from './resellers.schemas.js';
import { resellersService, type ResellersDeps } from './resellers.service.js';

export interface ResellersModule extends ResourceModule<ResellersFacade> {
  readonly authentication: ResellerAuthentication;
}

export function resellersModule(
  deps: ResellersDeps & {
    idempotency: IdempotencyService;
    cache?: CredentialCache<Reseller>;
  },
): ResellersModule {
  const resellers = resellersService(deps);
  return {
    name: 'resellers',
    schemas: [Affiliate, CreatedAffiliate, AffiliateList],
    routes: (app) => resellersRoutes(app, { resellers, idempotency: deps.idempotency }),
    facade: resellersFacade,
    authentication: resellerAuthentication({
      db: deps.db,
      ...(deps.cache ? { cache: deps.cache } : {}),
    }),
  };
}
