/**
 * v2017-09-28 Multi-item Orders. Before it an order booked one experience, named at the top
 * of the body and of the order (Xola's browser SDK still books that way). The rewrite of
 * such bodies and the order's older shape live with the orders
 * (modules/orders/orders.versions.ts).
 */
import type { ApiVersion } from './types.js';

export const multiItemOrders: ApiVersion = {
  date: '2017-09-28',
  title: 'Multi-item Orders',
  description: [
    'An order books one or more `items`, each an experience at an arrival date and time with its own quantity or guest types.',
    'Callers on earlier versions may book one item with the item’s fields at the top of the body of `POST /api/orders` and `POST /api/orders/prepare`',
    '(`experience` as `{"id"}` or a bare id, `arrival`, `arrivalTime`, `quantity`, `demographics` or `lineItems`, and the expected `amount`),',
    'and see the first item’s `experience`, `event`, `arrivalTime`, `arrivalDatetime`, `quantity`, `demographics` and `lineItems` at the top of orders and quotes too, beside `items`.',
  ].join(' '),
};
