/** The confirmation loader over the modules' facades: what the dispatcher uses by default. */
import { eventsFacade } from '../modules/events/index.js';
import { experiencesFacade } from '../modules/experiences/index.js';
import { guidesFacade } from '../modules/guides/index.js';
import { ordersFacade } from '../modules/orders/index.js';
import { confirmationLoader } from './confirmation.loader.js';

export const loadConfirmation = confirmationLoader({
  orders: ordersFacade,
  events: eventsFacade,
  experiences: experiencesFacade,
  guides: guidesFacade,
});
