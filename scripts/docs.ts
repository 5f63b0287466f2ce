/**
 * Writes the generated documentation: docs/changelog.md from src/versions/, and the field
 * tables of docs/query-language.md from the modules' list specs.
 */
import fs from 'node:fs';
import { LIST_REFERENCE, withFieldTables } from './query-reference.js';
import { renderChangelog } from '../src/versions/changelog.js';
import { apiVersions } from '../src/versions/index.js';

fs.writeFileSync('docs/changelog.md', renderChangelog(apiVersions));
console.log('wrote docs/changelog.md');
const path = 'docs/query-language.md';
fs.writeFileSync(path, withFieldTables(fs.readFileSync(path, 'utf8'), LIST_REFERENCE));
console.log(`wrote the field tables of ${path}`);
