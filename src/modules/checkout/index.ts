/** The checkout module's public surface: the only file other code imports from it. */
export { checkoutModule } from './checkout.module.js';
export { checkoutFacade, type CheckoutFacade } from './checkout.facade.js';
