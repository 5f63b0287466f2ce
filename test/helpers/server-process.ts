/**
 * The real server as a child process: the production bundle (what `npm start` runs), built
 * once per test file into node_modules/.cache (so it resolves the packages it leaves outside
 * as dist/bundle/ would), started with the given environment, ready when it logs
 * "Server listening".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleServer } from '../../scripts/bundle.js';

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote so far. */
  output(): string;
}

export async function buildBundle(): Promise<{ bundle: string; remove(): void }> {
  const dir = path.resolve(`node_modules/.cache/booking-bundle-${process.pid}-${Date.now()}`);
  const bundle = await bundleServer(path.join(dir, 'server.js'));
  return { bundle, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function startServer(
  bundle: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${output}`)), 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, base, exited, output: () => output };
}

/** The command line as an operator runs it (through tsx, to skip the build). */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}
