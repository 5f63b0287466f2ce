/** The lists docs/query-language.md documents, and how its generated section is replaced. */
import { delegateList } from '../src/modules/delegates/index.js';
import { eventList } from '../src/modules/events/index.js';
import { experienceList } from '../src/modules/experiences/index.js';
import { guideList } from '../src/modules/guides/index.js';
import { deliveryList, hookList } from '../src/modules/hooks/index.js';
import { orderList } from '../src/modules/orders/index.js';
import { renderFieldTables } from '../src/query/describe.js';
import type { ResourceSpec } from '../src/query/types.js';

export const LIST_REFERENCE: { title: string; spec: ResourceSpec }[] = [
  { title: 'orders (`GET /api/orders`)', spec: orderList },
  { title: 'experiences (`GET /api/experiences`)', spec: experienceList },
  { title: 'events (`GET /api/events`)', spec: eventList },
  { title: 'guides (`GET /api/sellers/{id}/guides`)', spec: guideList },
  { title: 'delegates (`GET /api/users/{id}/delegates`)', spec: delegateList },
  { title: 'hooks (`GET /api/users/{id}/hooks`)', spec: hookList },
  { title: 'deliveries (`GET /api/users/{id}/hooks/{hookId}/deliveries`)', spec: deliveryList },
];

/** The document with its `## Fields` section (the last one) regenerated. */
export function withFieldTables(document: string, lists: typeof LIST_REFERENCE): string {
  const at = document.indexOf('## Fields');
  if (at < 0) throw new Error('docs/query-language.md has no "## Fields" section');
  return `${document.slice(0, at)}${renderFieldTables(lists)}`;
}
