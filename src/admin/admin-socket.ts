/**
 * The embedded server's door for the command line. One process may hold an embedded data
 * directory (db/data-dir-lock.ts), so while the server runs, `cli users create` cannot open
 * the database itself; it asks the server instead, over a Unix socket in the data directory
 * (`DATA_DIR/admin.sock`, owner-only). Whoever can reach that socket can already read the
 * database files beside it, so the file system's permissions are the right boundary; the
 * socket serves only the trusted operations the CLI needs, and is not a network port.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DomainError } from '../domain/errors.js';
import { problemOf } from '../http/problems.js';
import type { UsersModule } from '../modules/users/index.js';

export const ADMIN_SOCKET = 'admin.sock';

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  roles: string[];
}

const MAX_BODY = 64 * 1024;

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY) throw new Error('body too large');
  }
  return JSON.parse(body) as unknown;
}

function isNewAccount(value: unknown): value is NewAccount {
  const v = value as Partial<NewAccount> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    typeof v.email === 'string' &&
    typeof v.password === 'string' &&
    Array.isArray(v.roles) &&
    v.roles.every((r) => typeof r === 'string')
  );
}

export interface AdminSocket {
  close(): Promise<void>;
}

/** Serves `POST /users` (a trusted account creation) on `DATA_DIR/admin.sock`. */
export async function openAdminSocket(
  dataDir: string,
  users: UsersModule['service'],
): Promise<AdminSocket> {
  const socketPath = path.join(dataDir, ADMIN_SOCKET);
  // Ours to replace: we hold the data directory's lock, so no live process owns it.
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.url !== '/users') return reply(404, {});
    readJson(request)
      .then(async (input) => {
        if (!isNewAccount(input)) return reply(400, { detail: 'name, email, password, roles' });
        reply(201, await users.create(input, { trusted: true }));
      })
      .catch((error: unknown) =>
        error instanceof DomainError
          ? reply(error.status, problemOf(error))
          : reply(400, { detail: 'not a valid request' }),
      );
  });
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(previous);
  }
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          fs.rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}
