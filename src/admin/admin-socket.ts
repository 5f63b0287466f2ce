/**
 * The embedded server's door for the command line. One process may hold an embedded data
 * directory (db/data-dir-lock.ts), so while the server runs, a `cli` command cannot open the
 * database itself; it asks the server to run it instead, over a Unix socket in the data
 * directory (`DATA_DIR/admin.sock`, owner-only). Whoever can reach that socket can already
 * read the database files beside it, so the file system's permissions are the right
 * boundary; the socket runs only the command line's own commands, and is not a network port.
 *
 * `POST /commands` with `{command, args}` runs one on the server's database and streams its
 * output back as it comes, one JSON object a line: `{"out": text}`, `{"err": text}`, then
 * `{"exit": code}` (an error the command throws is an `err` line and exit code 1).
 *
 * The socket's path is checked against the length a Unix socket allows (config.ts, at load):
 * a longer one would be truncated by the system, out of the data directory. A socket that
 * cannot listen does not stop the server (HTTP is served as before); its error says what is
 * lost, and `cli` commands beside it then refuse instead of running (admin-client.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import { adminSocketPath, type Config } from '../config.js';
import type { Database } from '../db/database.js';

/** A command as the command line names it: `users` with `['create', '--email', …]`. */
export interface CommandRequest {
  command: string;
  args: string[];
}

/** Where a command writes: its standard output and its error output. */
export interface CommandOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs a command on the server's database and configuration; resolves with its exit code. */
export type AdminCommands = (
  request: CommandRequest,
  context: CommandOutput & { database: Database; config: Config },
) => Promise<number>;

/** One line of the answer's stream. */
export type CommandLine = { out: string } | { err: string } | { exit: number };

const MAX_BODY = 64 * 1024;

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY) throw new Error('body too large');
  }
  return JSON.parse(body) as unknown;
}

function isCommandRequest(value: unknown): value is CommandRequest {
  const v = value as Partial<CommandRequest> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.command === 'string' &&
    Array.isArray(v.args) &&
    v.args.every((a) => typeof a === 'string')
  );
}

export interface AdminSocket {
  close(): Promise<void>;
}

/** Serves `POST /commands` on `DATA_DIR/admin.sock`, running each with `run`. */
export async function openAdminSocket(
  dataDir: string,
  run: (request: CommandRequest, output: CommandOutput) => Promise<number>,
): Promise<AdminSocket> {
  const socketPath = adminSocketPath(dataDir);
  // Ours to replace: we hold the data directory's lock, so no live process owns it.
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/commands') {
      response.writeHead(404).end();
      return;
    }
    const send = (line: CommandLine) => response.write(`${JSON.stringify(line)}\n`);
    readJson(request)
      .then(async (input) => {
        if (!isCommandRequest(input)) throw new Error('expected {command, args}');
        response.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const exit = await run(input, {
          out: (text) => send({ out: text }),
          err: (text) => send({ err: text }),
        }).catch((error: unknown) => {
          send({ err: error instanceof Error ? error.message : String(error) });
          return 1;
        });
        send({ exit });
        response.end();
      })
      .catch((error: unknown) => {
        if (!response.headersSent)
          response.writeHead(400, { 'content-type': 'application/x-ndjson' });
        send({ err: `not a command: ${(error as Error).message}` });
        send({ exit: 1 });
        response.end();
      });
  });
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (error) {
    throw new Error(
      `The admin socket ${socketPath} cannot listen (${(error as Error).message}): ` +
        '`cli` commands cannot run while this server holds the data directory; stop it to run them',
      { cause: error },
    );
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
        // A command still streaming (a long seed) is not waited for.
        server.closeAllConnections();
      }),
  };
}
