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
  it('carries the OpenAPI summary and the field table of every list (run npm run docs)', async () => {
    const { QUERY_LANGUAGE_SUMMARY } = await import('../../src/query/describe.js');
    const { LIST_REFERENCE, withFieldTables } = await import('../../scripts/query-reference.js');
    const text = fs.readFileSync('docs/query-language.md', 'utf8');
    expect(text).toContain(QUERY_LANGUAGE_SUMMARY);
    expect(text).toBe(withFieldTables(text, LIST_REFERENCE));
  });
});

describe('webhooks reference', () => {
  it('carries the generated event catalogue (run npm run docs)', async () => {
    const { withEventCatalogue } = await import('../../scripts/webhook-reference.js');
    const text = fs.readFileSync('docs/webhooks.md', 'utf8');
    expect(text).toBe(withEventCatalogue(text));
    for (const name of ['order.create', 'order.cancel', 'event.update', 'user.update']) {
      expect(text).toContain(`### \`${name}\``);
    }
  });
});

describe('architecture', () => {
  it('carries the module table generated from the imports (run npm run docs)', async () => {
    const { withModuleTable } = await import('../../scripts/module-table.js');
    const text = fs.readFileSync('docs/architecture.md', 'utf8');
    expect(text).toBe(withModuleTable(text));
  });

  it('names only files and folders that exist', () => {
    const text = fs.readFileSync('docs/architecture.md', 'utf8');
    const named = [...text.matchAll(/`((?:src|test|scripts|bench|widget|deploy)\/[\w./-]+)`/g)]
      .map((m) => m[1]!)
      .concat(
        [...text.matchAll(/`([\w-]+\/[\w./-]*\.ts)`/g)]
          .map((m) => m[1]!)
          .filter((p) => !p.includes('<'))
          .map((p) => (fs.existsSync(`src/${p}`) ? `src/${p}` : p)),
      )
      .concat(
        [...text.matchAll(/`([\w-]+\.ts)`/g)].map((m) => m[1]!).filter((f) => !f.startsWith('<')),
      );
    const srcFiles = fs.readdirSync('src', { recursive: true }).map(String);
    const missing = named
      .filter((p) => !p.includes('NNNN'))
      .filter((p) => {
        if (p.includes('/'))
          return !fs.existsSync(p.replace(/\/$/, '')) && !fs.existsSync(`src/${p}`);
        return !srcFiles.some((f) => f.endsWith(`/${p}`) || f === p);
      });
    expect([...new Set(missing)]).toEqual([]);
  });
});
