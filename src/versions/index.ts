/**
 * The dated API versions, oldest first: what changed on each date, for the changelog
 * (docs/changelog.md is generated from this list by `npm run docs`). A new dated change is a
 * new file in this folder added here, plus the rewrites and transforms in the modules whose
 * requests and objects it changes; app.ts joins them in the version registry.
 */
import { initial } from './0000-initial.js';
import { multiItemOrders } from './2017-09-28-multi-item-orders.js';
import { queryOperators } from './2018-02-15-query-operators.js';
import { guideProfiles } from './2018-02-26-guide-profiles.js';
import { guideAcknowledgement } from './2018-06-26-guide-acknowledgement.js';
import { strictBodies } from './2026-11-25-strict-bodies.js';
import type { ApiVersion } from './types.js';

export const apiVersions: readonly ApiVersion[] = [
  initial,
  multiItemOrders,
  queryOperators,
  guideProfiles,
  guideAcknowledgement,
  strictBodies,
];

/** The newest version: what new accounts are pinned to and anonymous callers get. */
export const LATEST_VERSION = apiVersions[apiVersions.length - 1]!.date;

export const GUIDE_PROFILES = guideProfiles.date;
export const GUIDE_ACKNOWLEDGEMENT = guideAcknowledgement.date;
export const QUERY_OPERATORS = queryOperators.date;
export const MULTI_ITEM_ORDERS = multiItemOrders.date;
export const STRICT_BODIES = strictBodies.date;
