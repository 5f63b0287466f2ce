/** The documentation cannot fall behind the code: every error code and variable is listed. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configVariables } from '../../src/config.js';
import { problemCodes } from '../../src/http/problems.js';

describe('docs', () => {
  it('catalogues every error code with its status in docs/api-conventions.md', () => {
    const text = fs.readFileSync('docs/api-conventions.md', 'utf8');
    for (const [code, { status }] of Object.entries(problemCodes)) {
      expect(text, code).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`));
    }
  });

  it('lists every configuration variable in docs/configuration.md', () => {
    const text = fs.readFileSync('docs/configuration.md', 'utf8');
    for (const name of configVariables) {
      expect(text, name).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
    }
  });
});

describe('changelog', () => {
  it('is up to date with src/versions (run npm run docs)', async () => {
    const { renderChangelog } = await import('../../src/versions/changelog.js');
    const { apiVersions } = await import('../../src/versions/index.js');
    expect(fs.readFileSync('docs/changelog.md', 'utf8')).toBe(renderChangelog(apiVersions));
  });
});

describe('query language reference', () => {
  it('carries the OpenAPI summary and every resource’s field table verbatim', async () => {
    const { QUERY_LANGUAGE_SUMMARY, describeFields } = await import('../../src/query/describe.js');
    const { orderList } = await import('../../src/modules/orders/orders.list.js');
    const { experienceList } = await import('../../src/modules/experiences/experiences.list.js');
    const { eventList } = await import('../../src/modules/events/events.list.js');
    const text = fs.readFileSync('docs/query-language.md', 'utf8');
    expect(text).toContain(QUERY_LANGUAGE_SUMMARY);
    for (const spec of [orderList, experienceList, eventList])
      expect(text).toContain(describeFields(spec));
  });
});
