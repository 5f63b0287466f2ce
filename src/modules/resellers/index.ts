/** The resellers module's public surface: the only file other code imports from it. */
export { Affiliate, type AffiliateView } from './resellers.schemas.js';
export { resellersModule, type ResellersModule } from './resellers.module.js';
export { resellersFacade, type ResellersFacade } from './resellers.facade.js';
export { resellerOwners, type ResellerAuthentication } from './reseller-auth.js';
