/** The orders module assembled: routes over the service, the facade, what it registers. */
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { ordersFacade, type OrdersFacade } from './orders.facade.js';
import { ordersRoutes } from './orders.routes.js';
import { Order, OrderList, OrderQuote } from './orders.schemas.js';
import { ordersService, type OrdersServiceDeps } from './orders.service.js';
import { orderVersionChanges } from './orders.versions.js';

export function ordersModule(
  deps: OrdersServiceDeps & { idempotency: IdempotencyService },
): ResourceModule<OrdersFacade> & { releaseExpiredHolds: (limit: number) => Promise<number> } {
  const orders = ordersService(deps);
  return {
    releaseExpiredHolds: (limit) => orders.releaseExpiredHolds(limit),
    name: 'orders',
    schemas: [Order, OrderList, OrderQuote],
    routes: (app) => ordersRoutes(app, { orders, idempotency: deps.idempotency }),
    facade: ordersFacade,
    versions: orderVersionChanges,
  };
}
