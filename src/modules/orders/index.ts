/** The orders module's public surface: the only file other code imports from it. */
export { Order, type OrderItemView, type OrderView } from './orders.schemas.js';
export { ordersModule } from './orders.module.js';
export { ordersFacade, type OrdersFacade } from './orders.facade.js';
export type { RelayCap } from './orders.service.js';
export { ITEM_STATUS } from './orders.schemas.js';
export { orderList } from './orders.list.js';
