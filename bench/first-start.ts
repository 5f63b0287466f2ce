/**
 * First start and later starts of the embedded server (DESIGN.md section 10: `npm start`
 * healthy within 5 s after install, a first start on a new data directory included): the
 * built server (`npm start`'s command) spawned on a new DATA_DIR each time, then restarted
 * on one DATA_DIR, timed from spawn to its "Server listening" line.
 *
 *   npm run build && npx tsx bench/first-start.ts [--runs 5] [--without-template]
 *
 * --without-template moves dist/template/ aside while it runs (what a first start cost
 * before the build made one: initdb and every migration).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOnce } from './startup-time.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'without-template': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const TEMPLATE = path.join(import.meta.dirname, '..', 'dist', 'template');
const ASIDE = `${TEMPLATE}.aside-${process.pid}`;
const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  BOOKING_SECRET: 'benchmark-secret-0123456789-0123456789',
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dirs: string[] = [];
const fresh = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-first-start-'));
  dirs.push(dir);
  return dir;
};

if (values['without-template']) fs.renameSync(TEMPLATE, ASIDE);
try {
  const first: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { ms } = await startOnce(env(fresh()));
    first.push(ms);
    console.log(`first start ${i + 1}: listening after ${ms.toFixed(0)} ms`);
  }
  const later: number[] = [];
  const dir = fresh();
  await startOnce(env(dir));
  for (let i = 0; i < runs; i++) {
    const { ms } = await startOnce(env(dir));
    later.push(ms);
    console.log(`later start ${i + 1}: listening after ${ms.toFixed(0)} ms`);
  }
  const how = values['without-template'] ? 'without the template' : 'from dist/template/';
  console.log(
    `embedded, ${how}: first start median ${median(first).toFixed(0)} ms ` +
      `(max ${Math.max(...first).toFixed(0)}), later start median ${median(later).toFixed(0)} ms ` +
      `(max ${Math.max(...later).toFixed(0)}); load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  if (values['without-template']) fs.renameSync(ASIDE, TEMPLATE);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
