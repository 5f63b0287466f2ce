/** Renders docs/changelog.md from the registered versions (`npm run docs` writes it). */
import { additions as registered, type Addition } from './additions.js';
import type { ApiVersion } from './types.js';

export function renderChangelog(
  versions: readonly ApiVersion[],
  additions: readonly Addition[] = registered,
): string {
  const sections = [...versions]
    .sort((a, b) => b.date.localeCompare(a.date))
    .map((v) => `## ${v.date}: ${v.title}\n\n${v.description}\n`);
  const added = [...additions]
    .sort((a, b) => b.date.localeCompare(a.date))
    .map((a) => `### ${a.date}\n\n${a.description}\n`);
  return [
    '# API changelog',
    '',
    'Generated from `src/versions/` by `npm run docs`; do not edit by hand.',
    'Send `X-API-VERSION: YYYY-MM-DD` to choose a version; without it, requests use the',
    'version pinned on the account when it was created. Newest first.',
    '',
    ...(added.length > 0
      ? [
          '## Additions on every version',
          '',
          'New fields and accepted input that need no version; newest first.',
          '',
          ...added,
        ]
      : []),
    ...sections,
  ].join('\n');
}
