/** `cli …` as the embedded server runs it (cli/commands.ts): on a test app's database and configuration. */
import { runCommand } from '../../src/cli/commands.js';
import type { CommandContext } from '../../src/cli/context.js';
import type { TestApp } from './app.js';

export async function cliOn(
  t: Pick<TestApp, 'config' | 'database'>,
  ...args: string[]
): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const ctx: CommandContext = {
    config: t.config,
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    open: async () => ({ ...t.database, close: async () => undefined }),
  };
  const code = await runCommand({ command: args[0]!, args: args.slice(1) }, ctx);
  return { code, out };
}
