/**
 * The check-in desk assembled (docs/operations-day.md): scans, undo, Xola's order `modify`
 * and departures' manifests, over the orders module's guests and the events module's guides.
 */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { EventSink } from '../../outbox/index.js';
import { checkinsRoutes } from './checkins.routes.js';
import { Checkin, CheckinList, CheckinResult, Manifest } from './checkins.schemas.js';
import { checkinsService } from './checkins.service.js';
import type { CursorKeys } from './cursor-seal.js';
import { manifestService } from './manifest.service.js';

export function checkinsModule(deps: {
  db: Db;
  domainEvents?: EventSink;
  /**
   * The keys the manifest's paging cursors are sealed with (`manifestCursorKeys` of the
   * server secret).
   */
  cursorKeys: CursorKeys;
}): ResourceModule {
  const checkins = checkinsService(deps);
  const manifests = manifestService(deps);
  return {
    name: 'checkins',
    schemas: [Checkin, CheckinList, CheckinResult, Manifest],
    routes: (app) => checkinsRoutes(app, { checkins, manifests }),
  };
}
