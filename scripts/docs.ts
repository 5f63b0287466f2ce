/**
 * Writes the generated documentation: docs/changelog.md from src/versions/, and the field
 * tables of docs/query-language.md from the modules' list specs, and the event catalogue of
 * docs/webhooks.md from the object schemas, and the module table of docs/architecture.md from
 * the modules' imports.
 */
import fs from 'node:fs';
import { LIST_REFERENCE, withFieldTables } from './query-reference.js';
import { withEventCatalogue } from './webhook-reference.js';
import { withModuleTable } from './module-table.js';
import { renderChangelog } from '../src/versions/changelog.js';
import { apiVersions } from '../src/versions/index.js';

fs.writeFileSync('docs/changelog.md', renderChangelog(apiVersions));
console.log('wrote docs/changelog.md');
const path = 'docs/query-language.md';
fs.writeFileSync(path, withFieldTables(fs.readFileSync(path, 'utf8'), LIST_REFERENCE));
console.log(`wrote the field tables of ${path}`);
const hooksDoc = 'docs/webhooks.md';
fs.writeFileSync(hooksDoc, withEventCatalogue(fs.readFileSync(hooksDoc, 'utf8')));
console.log(`wrote the event catalogue of ${hooksDoc}`);
const architecture = 'docs/architecture.md';
fs.writeFileSync(architecture, withModuleTable(fs.readFileSync(architecture, 'utf8')));
console.log(`wrote the module table of ${architecture}`);
