/**
 * Runs the README's walk-through as a newcomer would paste it, so it cannot drift from the
 * service: the fenced `sh` blocks of its "A first walk-through" section, in order, against
 * a fresh server. What a person does by hand, this does the same way:
 *
 * - `… npm start` starts the real server (the build, then dist/bundle/server.js), here on a
 *   free port with a fresh DATA_DIR; the webhook receiver's `node -e` one-liner runs beside
 *   it, on a free port too (the ports written 3000 and 4000 are replaced by those);
 * - each curl runs in bash exactly as written, with the variables set so far;
 * - a `NAME=…` line takes the value its comment names in backticks (`apiKey`,
 *   `items[0].id`) from the answer just above, as a person copies it.
 *
 * It fails when a command fails or answers an error status (4xx, 5xx) or an empty list,
 * when a named value is not in the answer, or when the receiver has not printed the
 * booking's delivery.
 *
 *   npm run walkthrough [-- --readme README.md] [--keep]   (--keep leaves DATA_DIR behind)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../bench/processes.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTION = '## A first walk-through';
const STATUS_MARK = '\n__WALKTHROUGH_STATUS__';

/** One command as a shell reads it: continuation lines and multi-line quotes joined. */
export interface Step {
  text: string;
  /** For `NAME=…` lines: the variable and the path the comment names. */
  take?: { name: string; path: string };
}

/** The `sh` blocks of the walk-through section, as commands in order. */
export function walkthroughSteps(readme: string): Step[] {
  const start = readme.indexOf(SECTION);
  if (start < 0) throw new Error(`no "${SECTION}" section`);
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap(commandsOf);
}

function commandsOf(block: string): Step[] {
  const steps: Step[] = [];
  let current = '';
  for (const line of block.split('\n')) {
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += (current === '' ? '' : '\n') + line;
    if (line.endsWith('\\') || !quotesBalanced(current)) continue;
    steps.push(stepOf(current));
    current = '';
  }
  if (current !== '') throw new Error(`unfinished command: ${current}`);
  return steps;
}

/** Whether every quote opened in `text` is closed (single quotes literal, double escapable). */
function quotesBalanced(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === '"' && c === '\\') i++;
    else if (quote === undefined && c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol;
    } else if (quote === undefined && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = undefined;
  }
  return quote === undefined;
}

function stepOf(text: string): Step {
  const placeholder = /^([A-Z][A-Z0-9_]*)=…\s*#[^`]*`([^`]+)`/.exec(text);
  if (placeholder) return { text, take: { name: placeholder[1]!, path: placeholder[2]! } };
  if (/^[A-Z][A-Z0-9_]*=…/.test(text))
    throw new Error(`a NAME=… line must name its value in backticks: ${text}`);
  return { text };
}

/** `items[0].id` of a parsed answer. */
export function valueAt(answer: unknown, where: string): unknown {
  return where
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined,
      answer,
    );
}

interface Background {
  child: ChildProcess;
  output: () => string;
}

/** A long-running command of the walk-through, in its own process group. */
function background(command: string, env: NodeJS.ProcessEnv): Background {
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Whether something listens on `port` of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => (probe.destroy(), resolve(false)));
  });
}

async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms: number,
  log: () => string,
) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not within ${ms / 1000} s\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the webhook receiver has printed the booking's delivery. */
function receiverDelivered(receiver: Background, server: Background | undefined): Promise<void> {
  return waitFor(
    "the receiver printing the booking's delivery",
    () => receiver.output().includes('"eventName":"order.create"'),
    30_000,
    () => `receiver:\n${receiver.output()}\nserver:\n${server?.output() ?? ''}`,
  );
}

/** Throws when a background command has ended: it was to keep running. */
function alive(process: Background): true {
  if (process.child.exitCode !== null || process.child.signalCode !== null)
    throw new Error(
      `exited (${process.child.exitCode ?? process.child.signalCode}):\n${process.output()}`,
    );
  return true;
}

function stop(process: Background | undefined): void {
  if (!process?.child.pid || process.child.exitCode !== null) return;
  try {
    globalThis.process.kill(-process.child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** Runs the walk-through; resolves when every step succeeded, rejects naming the one that did not. */
export async function runWalkthrough(readmePath: string, keep = false): Promise<void> {
  const steps = walkthroughSteps(fs.readFileSync(readmePath, 'utf8'));
  const [apiPort, hookPort] = [await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-walkthrough-'));
  const localize = (text: string) =>
    text
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${apiPort}`)
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${hookPort}`)
      .replaceAll('.listen(4000)', `.listen(${hookPort})`);
  const variables: Record<string, string> = {};
  let server: Background | undefined;
  let receiver: Background | undefined;
  let answer: unknown;
  let booked = false;
  try {
    for (const [index, step] of steps.entries()) {
      const label = `step ${index + 1}: ${step.text.split('\n')[0]}`;
      if (step.take) {
        const value = valueAt(answer, step.take.path);
        if (typeof value !== 'string' && typeof value !== 'number')
          throw new Error(`${label}: no \`${step.take.path}\` in the answer above`);
        variables[step.take.name] = String(value);
        console.log(`${step.take.name}=${String(value)}`);
        continue;
      }
      const env = { ...process.env, ...variables, PORT: String(apiPort), DATA_DIR: dataDir };
      if (/\bnpm start\b/.test(step.text)) {
        console.log(`$ ${step.text}   (PORT=${apiPort} DATA_DIR=${dataDir})`);
        server = background(localize(step.text), { ...env, LOG_LEVEL: 'info' });
        const current = server;
        await waitFor(
          'the server listening',
          () => alive(current) && current.output().includes('Server listening'),
          180_000,
          current.output,
        );
        for (const line of current.output().split('\n'))
          if (line.includes('embedded database')) console.log(`server: ${line.slice(0, 200)}`);
        continue;
      }
      if (step.text.startsWith('node -e')) {
        console.log(`$ ${localize(step.text)}`);
        receiver = background(localize(step.text), env);
        const current = receiver;
        await waitFor(
          'the receiver listening',
          () => alive(current) && listening(hookPort),
          10_000,
          current.output,
        );
        continue;
      }
      if (!step.text.startsWith('curl ')) throw new Error(`${label}: not a command this runs`);
      const text = localize(step.text);
      console.log(`$ ${text}`);
      // Deliveries are recorded by the outbox worker after the booking's answer; a person
      // pasting the step reads it after the receiver printed the delivery, so this waits too.
      if (text.includes('/deliveries') && receiver) await receiverDelivered(receiver, server);
      let result = await runCurl(text, env);
      for (const until = Date.now() + 30_000; text.includes('/deliveries') && Date.now() < until;) {
        if (!/"data":\[\]/.test(result.stdout)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
        result = await runCurl(text, env);
      }
      const cut = result.stdout.lastIndexOf(STATUS_MARK);
      const body = cut < 0 ? result.stdout : result.stdout.slice(0, cut);
      const status = cut < 0 ? 0 : Number(result.stdout.slice(cut + STATUS_MARK.length).trim());
      console.log(body.length > 400 ? `${body.slice(0, 400)}…` : body);
      if (result.code !== 0)
        throw new Error(`${label}: curl exited ${result.code}: ${result.stderr}`);
      if (!(status >= 200 && status < 400))
        throw new Error(`${label}: answered ${status}: ${body}`);
      answer = body === '' ? undefined : (JSON.parse(body) as unknown);
      // A list that finds nothing shows a newcomer nothing (a made-up search code did).
      const list = valueAt(answer, 'data');
      if (Array.isArray(list) && list.length === 0)
        throw new Error(`${label}: an empty list; the walk-through should find what it made`);
      if (text.includes('/api/orders') && text.includes('Idempotency-Key')) booked = true;
    }
    if (!server) throw new Error('the walk-through never starts the server');
    if (!receiver || !booked)
      throw new Error('the walk-through never books with a webhook receiver');
    const current = receiver;
    await receiverDelivered(current, server);
    console.log(`receiver: ${current.output().trim().split('\n')[0]!.slice(0, 200)}…`);
    console.log(
      `\nThe walk-through ran: ${steps.length} steps, a booking and its webhook delivery.`,
    );
  } finally {
    stop(receiver);
    stop(server);
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function runCurl(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The command as written; curl also reports the status after the body.
  const script = `curl() { command curl -w '${STATUS_MARK.replace('\n', '\\n')}%{http_code}' "$@"; }\n${command}`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      readme: { type: 'string', default: path.join(ROOT, 'README.md') },
      keep: { type: 'boolean', default: false },
    },
  });
  runWalkthrough(values.readme, values.keep).catch((error: unknown) => {
    console.error(
      `\nThe walk-through failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 1;
  });
}
