/**
 * The command line as an operator runs it (through tsx, to skip the build): a command
 * pointed at a directory without a database says so and makes nothing there (only `migrate`
 * makes one, from the template); creating an admin, migrating, usage errors (arguments to a
 * command that takes none: `migrate --dry-run` does not migrate), and the one-line refusal of
 * a bad configuration (a PostgreSQL server without BOOKING_SECRET too, a HOST with a port)
 * or of an address the server cannot listen on.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/server-process.js';

describe('the command line', () => {
  it('says a directory holds no database instead of making one, for every command but migrate', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-cli-'));
    try {
      for (const dir of [path.join(parent, 'data'), parent]) {
        const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dir } as Record<string, string>;
        const commands = [
          ['outbox'],
          ['users', 'create', '--email', 'a@example.com', '--name', 'A'],
          ['seed', '--orders', '10'],
          ['rotate-secret'],
        ];
        const secrets = { BOOKING_SECRET: 'a'.repeat(40), BOOKING_SECRET_PREVIOUS: 'b'.repeat(40) };
        const answers = await Promise.all(commands.map((c) => runCli(c, { ...env, ...secrets })));
        answers.forEach((refused, i) => {
          expect(refused.code, commands[i]!.join(' ')).toBe(1);
          expect(refused.out.trim().split('\n'), refused.out).toHaveLength(1);
          expect(refused.out).toContain(`No database in ${dir}:`);
        });
      }
      // Nothing was made: not the missing directory, nothing in the empty one.
      expect(fs.readdirSync(parent)).toEqual([]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);

  it('creates an admin whose key works, and migrates an up-to-date schema as a no-op', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-cli-'));
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dir } as Record<string, string>;
    const run = (args: string[]) => runCli(args, env);
    // `migrate` makes the database (a copy of the build's template when there is one).
    const made = await run(['migrate']);
    expect(made.code, made.out).toBe(0);
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
    const admin = JSON.parse(created.out) as {
      id: string;
      roles: string[];
      apiKey: string;
      password: string;
    };
    expect(admin.roles).toContain('ROLE_ADMIN');
    expect(admin.password.length).toBeGreaterThanOrEqual(12);
    const migrated = await run(['migrate']);
    expect(migrated.out).toContain('schema is up to date');
    const usage = await run(['users', 'create', '--name', 'No Email']);
    expect(usage.code).toBe(1);
    expect(usage.out).toContain('needs --email');

    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const base = await new Promise<string>((resolve) => {
        let out = '';
        server.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const match = /Server listening at (http:\/\/[\d.:]+)/.exec(out);
          if (match) resolve(match[1]!);
        });
      });
      const me = await fetch(`${base}/api/users/me`, { headers: { 'x-api-key': admin.apiKey } });
      expect(((await me.json()) as { roles: string[] }).roles).toContain('ROLE_ADMIN');
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.on('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses arguments to a command that takes none, doing nothing (no dry run)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-cli-'));
    try {
      const env = {
        DATABASE_URL: '',
        DATA_DIR: dir,
        BOOKING_SECRET: 'a'.repeat(40),
        BOOKING_SECRET_PREVIOUS: 'b'.repeat(40),
      };
      const commands = [
        ['migrate', '--dry-run'],
        ['migrate', '--help'],
        ['rotate-secret', '--dry-run'],
        ['prune', 'now'],
      ];
      const answers = await Promise.all(commands.map((command) => runCli(command, env)));
      for (const [i, refused] of answers.entries()) {
        const command = commands[i]!;
        expect(refused.code, command.join(' ')).toBe(1);
        expect(refused.out).toContain(
          `${command[0]} takes no arguments (got ${command[1]}); it has no dry run`,
        );
        expect(refused.out).toContain('Usage: cli <command>');
      }
      // `migrate` would have made a database here: nothing was made.
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names HOST and PORT in one line when the server cannot listen, a port in HOST before anything is made', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-cli-'));
    const taken = net.createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as net.AddressInfo).port;
    const start = async (env: Record<string, string>) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, ...env },
      });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, err };
    };
    try {
      const hostWithPort = await start({ HOST: 'localhost:3000' });
      expect(hostWithPort.code).toBe(1);
      expect(hostWithPort.err.trim().split('\n'), hostWithPort.err).toHaveLength(1);
      expect(hostWithPort.err).toContain('HOST must be an IP address or a host name');
      // Refused before the embedded database was made.
      expect(fs.readdirSync(dir)).toEqual([]);

      const inUse = await start({ HOST: '127.0.0.1', PORT: String(port) });
      expect(inUse.code).toBe(1);
      const last = inUse.err.trim().split('\n').at(-1);
      expect(last).toBe(
        `Cannot listen on HOST=127.0.0.1 PORT=${port}: another process listens on that port already (EADDRINUSE)`,
      );
      expect(inUse.err).not.toContain('    at ');
    } finally {
      taken.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops with one clear line naming a bad variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'eighty' },
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('PORT must be integer');
    expect(err).not.toContain('    at ');
  });

  it('refuses a PostgreSQL server without BOOKING_SECRET, server and command line alike', async () => {
    // Nothing listens on port 1: the refusal comes before any connection is tried.
    const env = { DATABASE_URL: 'postgres://booking@127.0.0.1:1/booking', BOOKING_SECRET: '' };
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, ...env },
    });
    let err = '';
    server.stderr.on('data', (c: Buffer) => (err += c.toString()));
    expect(await new Promise((resolve) => server.on('exit', resolve))).toBe(1);
    expect(err).toContain('BOOKING_SECRET must be set with DATABASE_URL');
    expect(err).not.toContain('    at ');
    for (const command of [
      ['users', 'create', '--email', 'a@example.com', '--name', 'A'],
      ['migrate'],
    ]) {
      const refused = await runCli(command, env);
      expect(refused.code, command.join(' ')).toBe(1);
      expect(refused.out.trim().split('\n'), refused.out).toHaveLength(1);
      expect(refused.out).toContain('BOOKING_SECRET must be set with DATABASE_URL');
    }
  }, 60_000);
});
