/**
 * One process per embedded data directory, with the real processes: the production bundle
 * as the server, the command line through tsx (as test/process/cli.test.ts runs it).
 *
 * - a first start on a new DATA_DIR copies the migrated template (dist/template/, made by
 *   the build) instead of making a database from nothing, and says so, one line a stage;
 * - a second server on the same DATA_DIR refuses at once with one line naming the first;
 * - every command of the command line works while the server runs, through the server
 *   (its admin socket): users create (the key works at once and after a restart), migrate,
 *   outbox, and rotate-secret's refusal of a server without a previous secret; but seed,
 *   which refuses there (its statements would hold the server's event loop for minutes);
 * - a server whose lock file is deleted under it stops at its next heartbeat;
 * - kill -9, then start again: no stale-lock refusal, data intact;
 * - a command run in another PID namespace (a container beside the server's, sharing the
 *   volume; `unshare` here) sees the server through the lock's heartbeat, where the server's
 *   pid means nothing, and runs through it instead of opening the directory itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTemplate } from '../../scripts/template.js';
import { buildBundle, runCli, startServer, type ServerProcess } from '../helpers/server-process.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-datadir-'));
const env = { DATABASE_URL: '', DATA_DIR: dataDir };
let bundle: Awaited<ReturnType<typeof buildBundle>>;
beforeAll(async () => {
  // What `npm run build` makes (a no-op when dist/template/ is up to date).
  await buildTemplate();
  bundle = await buildBundle();
}, 120_000);
afterAll(() => {
  bundle.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const run = (command: string[]) => runCli(command, env);

async function me(server: ServerProcess, apiKey: string): Promise<number> {
  return (await fetch(`${server.base}/api/users/me`, { headers: { 'x-api-key': apiKey } })).status;
}

describe('one process per embedded data directory', () => {
  it('starts from the template, refuses a second process, runs every CLI command through the server, survives kill -9', async () => {
    const first = await startServer(bundle.bundle, env);
    try {
      // A first start: the template copied, each stage a line, then listening.
      const stages = first
        .output()
        .split('\n')
        .filter((line) => line.includes('embedded database'));
      expect(stages.join('\n')).toMatch(/none in .* yet; copying the migrated template/);
      expect(stages.join('\n')).toMatch(/template copied in \d+\.\d s/);
      expect(first.output()).not.toContain('initdb');

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

      // Seeding is refused by the running server, in one line: stop it first.
      const seeded = await run(['seed', '--orders', '20', '--sellers', '2']);
      expect(seeded.code, seeded.out).toBe(1);
      expect(seeded.out.trim().split('\n'), seeded.out).toHaveLength(1);
      expect(seeded.out).toMatch(
        new RegExp(
          `^server ${first.child.pid}: seed does not run inside a running embedded server`,
        ),
      );
      expect(seeded.out).toContain('Stop the server first, then run cli seed.');
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

      // The other commands run in the server too, with its configuration.
      const migrated = await run(['migrate']);
      expect(migrated, migrated.out).toEqual({ code: 0, out: 'schema is up to date\n' });
      const outbox = await run(['outbox']);
      expect(outbox.code, outbox.out).toBe(0);
      expect(outbox.out).toContain('SMTP_URL is not set: email stays queued until it is.');
      // The server was started without BOOKING_SECRET_PREVIOUS: refused, in one line, by it.
      const rotated = await run(['rotate-secret']);
      expect(rotated.code).toBe(1);
      expect(rotated.out.trim().split('\n'), rotated.out).toHaveLength(1);
      expect(rotated.out).toMatch(
        new RegExp(`^server ${first.child.pid}: rotate-secret needs BOOKING_SECRET`),
      );
      // A command line that cannot be run: the usage, from the server as from the cli.
      const usage = await run(['users', 'create', '--name', 'No Email']);
      expect(usage.code).toBe(1);
      expect(usage.out).toContain('users create needs --email and --name');
      expect(usage.out).toContain('Usage: cli <command>');

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

describe('a server whose lock is lost', () => {
  it('stops at its next heartbeat, saying why, rather than go on beside another process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-datadir-lost-'));
    try {
      const server = await startServer(bundle.bundle, { DATABASE_URL: '', DATA_DIR: dir });
      fs.rmSync(path.join(dir, '.lock'));
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(
        `The data directory ${dir} is no longer held by this process (server, pid ${server.child.pid}): its lock file was deleted.`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** `unshare` can start a process in a PID namespace of its own here (root, or user namespaces). */
const UNSHARE = ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc'];
const canUnshare = spawnSync('unshare', [...UNSHARE, 'true']).status === 0;

describe.runIf(canUnshare)('a command from another PID namespace', () => {
  it('runs through the server it cannot see by pid, and leaves its lock alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-datadir-ns-'));
    const nsEnv = { DATABASE_URL: '', DATA_DIR: dir };
    const server = await startServer(bundle.bundle, nsEnv);
    try {
      const lockBefore = fs.readFileSync(path.join(dir, '.lock'), 'utf8');
      const created = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const args = ['--import', 'tsx', 'src/cli.ts', 'users', 'create'];
        const child = spawn(
          'unshare',
          [...UNSHARE, process.execPath, ...args, '--email', 'ns@example.com', '--name', 'NS'],
          { env: { ...process.env, ...nsEnv } },
        );
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
      expect(created.code, created.out).toBe(0);
      const user = JSON.parse(created.out) as { apiKey: string; via?: string };
      expect(user.via).toBe(`server ${server.child.pid}`);
      expect(await me(server, user.apiKey)).toBe(200);
      expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(lockBefore);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
