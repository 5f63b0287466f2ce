/**
 * Start-up benchmark: spawns the built server (`npm start`'s command) several times and reports
 * the time from spawn to the "Server listening" log line and the process RSS right after.
 * (`npm run bench` measures the same on its PostgreSQL database and reports it.)
 *
 *   npm run build && npx tsx bench/startup.ts [--runs 5] [--database-url postgres://…]
 *
 * Without --database-url it uses the embedded database in a temporary DATA_DIR (the first
 * run creates it; later runs open it, which is what a restart costs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureStartup } from './startup-time.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'database-url': { type: 'string' } },
});
const runs = Number(values.runs);
const databaseUrl = values['database-url'];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-startup-'));

const result = await measureStartup(runs, {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  BOOKING_SECRET: 'benchmark-secret-0123456789-0123456789',
});
fs.rmSync(dataDir, { recursive: true, force: true });
const backend = databaseUrl ? 'postgres' : 'pglite';
for (const [i, r] of result.runs.entries()) {
  console.log(
    `${backend} run ${i + 1}: listening after ${r.ms.toFixed(0)} ms, RSS ${r.rssMb.toFixed(1)} MB`,
  );
}
console.log(
  `${backend}: median of runs 2..${runs}: ${result.medianMs.toFixed(0)} ms, ` +
    `RSS ${result.rssMb.toFixed(1)} MB`,
);
