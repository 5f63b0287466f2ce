/**
 * v2017-09-28 Multi-item Orders. Before it an order booked one experience, named at the top
 * of the body and of the order (Xola's browser SDK still books that way), and changed it
 * there. The rewrites of such bodies and the order's older shape live with the orders
 * (modules/orders/orders.versions.ts), which also name errors as the client sent them.
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
    'Their `PUT`/`PATCH /api/orders/{id}` take the same item fields at the top of the body (`status` too, but not the order’s own `"confirmed"`/`"canceled"`, which is ignored) and change the order’s one live item with them;',
    'on an order with several live items they are 400 `validation_failed` naming each field: the multi-item form (`items`, each kept item by `id`), which these versions take too, says which item.',
    'Errors and `X-Ignored-Fields` name such fields as sent (`arrivalTime`, `demographics.0.quantity`), not as the item’s (`items.0.arrivalTime`).',
  ].join(' '),
};
