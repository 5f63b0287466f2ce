/**
 * Running load: forks load-runner.ts (autocannon) with one job and waits for its numbers.
 */
import { fork } from 'node:child_process';
import path from 'node:path';

export interface LoadJob {
  url: string;
  connections: number;
  durationSec: number;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Paths visited in turn by every connection. */
  paths: string[];
  /** Request bodies handed out in turn across all connections (POST). */
  bodies?: string[];
  /** Stop after this many requests instead of after `durationSec`. */
  amount?: number;
}

export interface LoadResult {
  requests: number;
  durationSec: number;
  p50Ms: number;
  p99Ms: number;
  socketErrors: number;
  timeouts: number;
  /** Responses by HTTP status code. */
  statuses: Record<string, number>;
}

export function runLoad(job: LoadJob): Promise<LoadResult> {
  const child = fork(path.join(import.meta.dirname, 'load-runner.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: LoadResult; error?: string }) =>
      message.result ? resolve(message.result) : reject(new Error(message.error)),
    );
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load generator exited with code ${code}`));
    });
    child.send(job);
  });
}
