/**
 * Email as a part of the application: no routes of its own, the SMTP dispatcher as its
 * worker when a relay is configured (without one, mail waits in the outbox: `cli outbox`).
 */
import type { ResourceModule } from '../http/module.js';
import { createDispatcher, type DispatcherOptions } from './dispatcher.js';

export function mailModule(options: DispatcherOptions | undefined): ResourceModule {
  return {
    name: 'mail',
    schemas: [],
    workers: options ? [createDispatcher(options)] : [],
  };
}
