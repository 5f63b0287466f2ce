/**
 * src/node20-navigator.ts: with it imported first, importing node-postgres does not load
 * undici's fetch (which pg's Cloudflare probe did on Node 20, about 5 % of start-up), and
 * `navigator.userAgent` reads as Node 21+ define it. Run in a child process: this test
 * process has its own globals and modules loaded already.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');

/** What a fresh process reports after importing pg, with or without the module first. */
interface Seen {
  undici: boolean;
  userAgent: string | null;
  cores: number | null;
}

function afterPg(withShim: boolean): Seen {
  const script = `
    ${withShim ? "await import('./src/node20-navigator.ts');" : ''}
    await import('pg');
    const undici = process.moduleLoadList.some((name) => name.includes('undici'));
    const userAgent = 'navigator' in globalThis ? globalThis.navigator.userAgent : null;
    const cores = 'navigator' in globalThis ? globalThis.navigator.hardwareConcurrency : null;
    console.log(JSON.stringify({ undici, userAgent, cores }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as Seen;
}

describe('node20-navigator', () => {
  it('keeps pg from loading undici at import, and reads as Node 21+ does', () => {
    const major = process.versions.node.split('.')[0];
    expect(afterPg(true)).toEqual({
      undici: false,
      userAgent: `Node.js/${major}`,
      cores: availableParallelism(),
    });
  });

  it('is what makes the difference on Node 20 (later versions have their own)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(afterPg(false)).toEqual(
      major < 21
        ? { undici: true, userAgent: null, cores: null }
        : { undici: false, userAgent: `Node.js/${major}`, cores: availableParallelism() },
    );
  });
});
