/**
 * The command line's side of the admin socket (admin-socket.ts): used when the embedded
 * data directory is held by a running server. The command runs there, and its output is
 * written here as it comes.
 */
import http from 'node:http';
import path from 'node:path';
import { adminSocketPath } from '../config.js';
import { type CommandLine, type CommandOutput, type CommandRequest } from './admin-socket.js';

/** The server holds the data directory but does not answer on its socket (yet). */
export class AdminSocketUnavailableError extends Error {
  override name = 'AdminSocketUnavailableError';
}

/**
 * Runs `request` in the server that holds `dataDir`; resolves with the command's exit code.
 * A data directory too long for its socket is refused (a ConfigError) before anything is
 * sent: the system would truncate the path, and another server's socket could answer.
 */
export function runThroughServer(
  dataDir: string,
  request: CommandRequest,
  output: CommandOutput,
): Promise<number> {
  const body = JSON.stringify(request);
  return new Promise((resolve, reject) => {
    // Thrown here, a rejection like every other failure to reach the server.
    const socketPath = adminSocketPath(dataDir);
    const call = http.request(
      {
        socketPath,
        method: 'POST',
        path: '/commands',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let pending = '';
        let exit: number | undefined;
        const take = (line: string) => {
          if (line.trim() === '') return;
          const message = JSON.parse(line) as CommandLine;
          if ('out' in message) output.out(message.out);
          else if ('err' in message) output.err(message.err);
          else exit = message.exit;
        };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          pending += chunk;
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          lines.forEach(take);
        });
        response.on('end', () => {
          take(pending);
          if (exit === undefined)
            reject(new Error('the server ended the command without an exit code'));
          else resolve(exit);
        });
        response.on('error', reject);
      },
    );
    call.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new AdminSocketUnavailableError(
              `the server holding ${dataDir} does not answer on ${path.basename(socketPath)} (still starting?); try again in a moment`,
            )
          : error,
      ),
    );
    call.end(body);
  });
}
