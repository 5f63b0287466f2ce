/**
 * The orders module assembled: routes over the service, the facade, its version changes,
 * and the hold sweeper as its worker when the configuration turns it on.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { createHoldSweeper } from './hold-sweeper.js';
import { ordersFacade, type OrdersFacade } from './orders.facade.js';
import { ordersRoutes } from './orders.routes.js';
import { Order, OrderList, OrderQuote } from './orders.schemas.js';
import { ordersService, type OrdersServiceDeps } from './orders.service.js';
import { orderVersionChanges } from './orders.versions.js';

export function ordersModule(
  deps: OrdersServiceDeps & {
    idempotency: IdempotencyService;
    /** Releases expired holds every `sweepMs` on this instance; absent: no sweeper. */
    sweeper?: { sweepMs: number; logger: FastifyBaseLogger };
  },
): ResourceModule<OrdersFacade> {
  const orders = ordersService(deps);
  return {
    name: 'orders',
    schemas: [Order, OrderList, OrderQuote],
    routes: (app) => ordersRoutes(app, { orders, idempotency: deps.idempotency }),
    facade: ordersFacade,
    versions: orderVersionChanges,
    workers: deps.sweeper
      ? [createHoldSweeper({ releaseExpiredHolds: orders.releaseExpiredHolds, ...deps.sweeper })]
      : [],
  };
}
