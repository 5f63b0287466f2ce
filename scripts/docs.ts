/** Writes the generated documentation: docs/changelog.md from src/versions/. */
import fs from 'node:fs';
import { renderChangelog } from '../src/versions/changelog.js';
import { apiVersions } from '../src/versions/index.js';

fs.writeFileSync('docs/changelog.md', renderChangelog(apiVersions));
console.log('wrote docs/changelog.md');
