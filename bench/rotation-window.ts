/**
 * How long a rotated API key keeps working on another instance (issue 26, point 7): two
 * server processes on one PostgreSQL database; per trial a user's key is cached on B
 * (answered twice), rotated through A, and from the moment A's answer arrives the old key
 * is sent to B back to back until B refuses it. Reports how many trials B accepted the old
 * key after the rotation answered, how many times, and for how long.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/rotation npx tsx bench/rotation-window.ts [trials]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { serviceEnv } from './database.js';
import { freePort } from './processes.js';

const ROOT = path.join(import.meta.dirname, '..');
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/rotation_window';
const trials = Number(process.argv[2] ?? 200);

async function freshDatabase(): Promise<void> {
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.query(`create database "${name}"`);
  await client.end();
}

async function start(migrate: boolean): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...serviceEnv(url, 4),
      PORT: String(port),
      MIGRATE_ON_START: String(migrate),
      WEBHOOK_DISPATCH: 'false',
      ORDER_HOLD_SWEEP: 'false',
      AUTH_FAILURES_PER_ADDRESS: '0',
      SIGNUPS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { base, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`instance on ${port} did not start`);
}

const me = (base: string, key: string) =>
  fetch(`${base}/api/users/me`, { headers: { 'x-api-key': key } }).then((r) => r.status);

await freshDatabase();
const a = await start(true);
const b = await start(false);
try {
  const windows: number[] = [];
  const accepted: number[] = [];
  const rotations: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const signUp = await fetch(`${a.base}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rotating',
        email: `r.${Date.now()}.${trial}@example.com`,
        password: 'rotation password 1',
      }),
    });
    const { id, apiKey } = (await signUp.json()) as { id: string; apiKey: string };
    if ((await me(b.base, apiKey)) !== 200 || (await me(b.base, apiKey)) !== 200)
      throw new Error('the key is not accepted on B');
    const sent = performance.now();
    const rotated = await fetch(`${a.base}/api/users/${id}/apiKey`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    });
    const answered = performance.now();
    if (rotated.status !== 200) throw new Error(`rotation answered ${rotated.status}`);
    rotations.push(answered - sent);
    let accepts = 0;
    for (;;) {
      const status = await me(b.base, apiKey);
      if (status === 401) break;
      if (status !== 200) throw new Error(`B answered ${status}`);
      accepts += 1;
    }
    const refusedAt = performance.now();
    accepted.push(accepts);
    windows.push(accepts === 0 ? 0 : refusedAt - answered);
  }
  const late = windows.filter((w) => w > 0).sort((x, y) => x - y);
  const sorted = [...rotations].sort((x, y) => x - y);
  const at = (list: number[], q: number) =>
    list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  console.log(
    JSON.stringify(
      {
        trials,
        trialsWithAnAcceptAfterTheAnswer: late.length,
        acceptsAfterTheAnswer: accepted.reduce((s, n) => s + n, 0),
        windowMs: late.length ? { median: at(late, 0.5), max: late.at(-1) } : null,
        rotationAnswerMs: { median: at(sorted, 0.5), p99: at(sorted, 0.99), max: sorted.at(-1) },
      },
      null,
      2,
    ),
  );
} finally {
  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
}
