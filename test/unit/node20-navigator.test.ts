/**
 * src/node20-navigator.ts: with it imported first, importing node-postgres does not load
 * undici's fetch (which pg's Cloudflare probe did on Node 20, about 5 % of start-up), and
 * `navigator.userAgent` reads as Node 21+ define it. Run in a child process: this test
 * process has its own globals and modules loaded already.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');

/** What a fresh process reports after importing pg, with or without the module first. */
function afterPg(withShim: boolean): { undici: boolean; userAgent: string | null } {
  const script = `
    ${withShim ? "await import('./src/node20-navigator.ts');" : ''}
    await import('pg');
    const undici = process.moduleLoadList.some((name) => name.includes('undici'));
    const userAgent = 'navigator' in globalThis ? globalThis.navigator.userAgent : null;
    console.log(JSON.stringify({ undici, userAgent }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as { undici: boolean; userAgent: string | null };
}

describe('node20-navigator', () => {
  it('keeps pg from loading undici at import, and reads as Node 21+ does', () => {
    const major = process.versions.node.split('.')[0];
    expect(afterPg(true)).toEqual({ undici: false, userAgent: `Node.js/${major}` });
  });

  it('is what makes the difference on Node 20 (later versions have their own)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(afterPg(false)).toEqual(
      major < 21
        ? { undici: true, userAgent: null }
        : { undici: false, userAgent: `Node.js/${major}` },
    );
  });
});
