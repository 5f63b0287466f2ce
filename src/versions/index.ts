/**
 * The registered API versions, oldest first. A new dated change is a new module in this
 * folder, added to this list; docs/changelog.md is generated from it (`npm run docs`).
 */
import { initial } from './0000-initial.js';
import { queryOperators } from './2018-02-15-query-operators.js';
import { guideProfiles } from './2018-02-26-guide-profiles.js';
import { createVersionRegistry } from './registry.js';
import type { ApiVersion } from './types.js';

export const apiVersions: readonly ApiVersion[] = [initial, queryOperators, guideProfiles];

export const versionRegistry = createVersionRegistry(apiVersions);
