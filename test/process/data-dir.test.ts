/**
 * One process per embedded data directory, with the real processes: the production bundle
 * as the server, the command line through tsx (as test/process/cli.test.ts runs it).
 *
 * - a second server on the same DATA_DIR refuses at once with one line naming the first;
 * - `cli users create --admin` while the server runs goes through the server: its key works
 *   at once and after a restart;
 * - other commands that would open the database refuse with one line;
 * - kill -9, then start again: no stale-lock refusal, data intact.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, runCli, startServer, type ServerProcess } from '../helpers/server-process.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-datadir-'));
const env = { DATABASE_URL: '', DATA_DIR: dataDir };
let bundle: Awaited<ReturnType<typeof buildBundle>>;
beforeAll(async () => {
  bundle = await buildBundle();
}, 60_000);
afterAll(() => {
  bundle.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const run = (command: string[]) => runCli(command, env);

async function me(server: ServerProcess, apiKey: string): Promise<number> {
  return (await fetch(`${server.base}/api/users/me`, { headers: { 'x-api-key': apiKey } })).status;
}

describe('one process per embedded data directory', () => {
  it('refuses a second process, lets the CLI create an admin through the server, survives kill -9', async () => {
    const first = await startServer(bundle.bundle, env);
    try {
      // A second server: refused at once, one line naming the first.
      const second = spawn(process.execPath, [bundle.bundle], {
        env: { ...process.env, ...env, PORT: '0' },
      });
      let secondOut = '';
      second.stderr.on('data', (c: Buffer) => (secondOut += c.toString()));
      second.stdout.on('data', (c: Buffer) => (secondOut += c.toString()));
      const secondCode = await new Promise<number | null>((resolve) => second.on('exit', resolve));
      expect(secondCode).not.toBe(0);
      const refusal = secondOut.trim().split('\n');
      expect(refusal, secondOut).toHaveLength(1);
      expect(refusal[0]).toContain(`in use by process ${first.child.pid} (server`);
      expect((await fetch(`${first.base}/healthz`)).status).toBe(200);

      // The admin, through the running server.
      const created = await run([
        'users',
        'create',
        '--email',
        'root@example.com',
        '--name',
        'Root',
        '--admin',
      ]);
      expect(created.code, created.out).toBe(0);
      const admin = JSON.parse(created.out) as { apiKey: string; roles: string[]; via: string };
      expect(admin.roles).toContain('ROLE_ADMIN');
      expect(admin.via).toBe(`server ${first.child.pid}`);
      expect(await me(first, admin.apiKey)).toBe(200);

      // Commands that would open the database themselves: one clear line each.
      for (const command of [['migrate'], ['outbox'], ['seed', '--orders', '10']]) {
        const refused = await run(command);
        expect(refused.code, command.join(' ')).not.toBe(0);
        expect(refused.out.trim().split('\n'), refused.out).toHaveLength(1);
        expect(refused.out).toContain(`in use by process ${first.child.pid}`);
      }

      // kill -9: the lock is left behind, and must not stop the next start.
      first.child.kill('SIGKILL');
      await first.exited;
      expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(true);
      const restarted = await startServer(bundle.bundle, env);
      try {
        expect(await me(restarted, admin.apiKey)).toBe(200);
      } finally {
        restarted.child.kill('SIGTERM');
        expect(await restarted.exited).toBe(0);
      }
      expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
    } finally {
      first.child.kill('SIGKILL');
    }
  }, 120_000);
});
