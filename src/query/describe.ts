/**
 * The query language described for people: the summary that docs/query-language.md and
 * the OpenAPI description of every list endpoint share, and each resource's field table.
 */
import { fieldOperators } from './operators.js';
import { RESERVED_PARAMETERS } from './parse.js';
import { PAGING } from './plan.js';
import type { ResourceSpec } from './types.js';

export const QUERY_LANGUAGE_SUMMARY = [
  'Filters are query parameters: `field=value` (equals) or `field[operator]=value`, combined with AND.',
  'Operators: equals, notEqual, gt, gte, lt, lte, range, in, nin, startsWith, endsWith, contains, doesNotContain, exists.',
  '`in` and `nin` take a comma-separated list, `range` exactly two values (both included), `exists` true or false.',
  'startsWith, endsWith, contains and doesNotContain ignore case; `%`, `_` and `\\` are literal.',
  'notEqual, nin and doesNotContain also match objects where the field is empty.',
  'Filters on `items.*` fields hold for one item together; an order appears once.',
  'On a list of ids (`guides`), equals and in mean "contains".',
  `Paging: \`limit\` 1..${PAGING.maxLimit} (default ${PAGING.defaultLimit}), \`skip\` (or its synonym \`offset\`); \`sort=field\` or \`sort=-field\` (ties broken by id); \`count=true\` adds \`paging.total\`.`,
  'The default order is creation order, newest first (`sort=id` is oldest first); its `paging.next` pages by `id[lt]` ("made before that object"), so deep pages cost what the first costs.',
  `Reserved parameters, never filters: ${RESERVED_PARAMETERS.join(', ')}.`,
  'A filter for data the caller may not see returns no results; a malformed filter is a 400 naming the parameter.',
].join('\n');

/** Markdown table of a resource's fields: type, operators, sortable. */
export function describeFields(spec: ResourceSpec): string {
  const rows = spec.fields.map(
    (f) =>
      `| \`${f.name}\` | ${f.type}${f.enumValues ? ` (${f.enumValues.join(', ')})` : ''} | ${fieldOperators(f).join(', ')} | ${f.sortable ? 'yes' : ''} |`,
  );
  return ['| field | type | operators | sortable |', '|---|---|---|---|', ...rows].join('\n');
}

export function describeList(spec: ResourceSpec): string {
  return `${QUERY_LANGUAGE_SUMMARY}\n\nFields of ${spec.resource}:\n\n${describeFields(spec)}`;
}

/** The `## Fields` section of docs/query-language.md: one table per list. */
export function renderFieldTables(lists: readonly { title: string; spec: ResourceSpec }[]): string {
  return [
    '## Fields',
    '',
    '<!-- Generated from the list specs (src/modules/*/*.list.ts) by `npm run docs`; a test checks it. -->',
    '',
    ...lists.flatMap(({ title, spec }) => [`### ${title}`, '', describeFields(spec), '']),
  ].join('\n');
}
