/**
 * The OCTo module assembled (docs/octo.md): its routes under /octo with their own scope
 * (Bearer authentication, OCTo error bodies, the Octo-Capabilities echo), the OCTo objects
 * and request bodies as named schemas (OpenAPI components `Octo…`), and the renderer of
 * resellers' webhook bodies.
 */
import type { ResourceModule } from '../../http/module.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import type { ResellerRenderer } from '../hooks/index.js';
import { octoWebhookRenderer, octoWebhooksService } from './octo-webhooks.js';
import { OCTO_WEBHOOK_SCHEMAS, octoWebhookRoutes } from './octo-webhooks.routes.js';
import { OCTO_REQUEST_SCHEMAS } from './octo.bodies.js';
import { OctoError } from './octo.errors.js';
import { octoReadRoutes } from './octo.routes.js';
import { OCTO_RESPONSE_SCHEMAS } from './octo.schemas.js';
import { octoService, type OctoServiceDeps } from './octo.service.js';
import { octoBookingRoutes } from './octo-bookings.routes.js';
import { octoBookingsService, type OctoBookingsDeps } from './octo-bookings.service.js';
import { registerOctoScope, sendOctoProblem, type OctoScopeDeps } from './octo-scope.js';

export const OCTO_PREFIX = '/octo';

export interface OctoModule extends ResourceModule {
  /** The body of a delivery to a reseller's webhook (the hooks module's dispatcher asks). */
  readonly renderWebhook: ResellerRenderer;
}

export function octoModule(
  deps: OctoServiceDeps & OctoBookingsDeps & OctoScopeDeps & { cipher: ApiKeyCipher },
): OctoModule {
  const octo = octoService(deps);
  const bookings = octoBookingsService(deps);
  const webhooks = octoWebhooksService(deps);
  return {
    name: 'octo',
    schemas: [
      ...OCTO_RESPONSE_SCHEMAS,
      ...OCTO_REQUEST_SCHEMAS,
      ...OCTO_WEBHOOK_SCHEMAS,
      OctoError,
    ],
    prefix: OCTO_PREFIX,
    ownAuthentication: true,
    sendProblem: sendOctoProblem,
    routes: async (app) => {
      registerOctoScope(app, deps);
      await octoReadRoutes(app, { octo });
      await octoBookingRoutes(app, { bookings });
      await octoWebhookRoutes(app, { webhooks });
    },
    renderWebhook: octoWebhookRenderer(deps.db, bookings),
  };
}
