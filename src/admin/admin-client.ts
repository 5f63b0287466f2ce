/**
 * The command line's side of the admin socket (admin-socket.ts): used when the embedded
 * data directory is held by a running server.
 */
import http from 'node:http';
import path from 'node:path';
import { ADMIN_SOCKET, type NewAccount } from './admin-socket.js';

export interface CreatedAccount {
  id: string;
  email: string;
  roles: string[];
  apiKey: string;
}

export function createAccountThroughServer(
  dataDir: string,
  account: NewAccount,
): Promise<CreatedAccount> {
  const body = JSON.stringify(account);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: path.join(dataDir, ADMIN_SOCKET),
        method: 'POST',
        path: '/users',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          const parsed = JSON.parse(text || '{}') as CreatedAccount & {
            code?: string;
            detail?: string;
          };
          if (response.statusCode === 201) resolve(parsed);
          else
            reject(
              new Error(`${parsed.code ?? response.statusCode}: ${parsed.detail ?? 'refused'}`),
            );
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
