/**
 * `cli seed --reset` empties every table: with BOOKING_ENV=production (the configuration of
 * the process that runs it: the server's, through its admin socket) it refuses unless the
 * confirmation flag is given, before the database is even opened.
 */
import { describe, expect, it } from 'vitest';
import { RESET_CONFIRMATION, seedCommand } from '../../src/cli/seed.js';
import type { CommandContext } from '../../src/cli/context.js';
import { loadConfig } from '../../src/config.js';

class Opened extends Error {}

function context(env: Record<string, string>) {
  const lines: string[] = [];
  let opened = 0;
  const ctx: CommandContext = {
    config: loadConfig(env),
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
    // Reaching the database is as far as a test needs to see the command go.
    open: async () => {
      opened++;
      throw new Opened();
    },
  };
  return { ctx, lines, opened: () => opened };
}

describe('cli seed --reset', () => {
  it('refuses in production without the confirmation flag, and opens nothing', async () => {
    for (const env of [{}, { BOOKING_ENV: 'production' }] as Record<string, string>[]) {
      const { ctx, lines, opened } = context(env);
      expect(await seedCommand(ctx, ['--orders', '10', '--reset'])).toBe(1);
      expect(opened()).toBe(0);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('BOOKING_ENV=production');
      expect(lines[0]).toContain(RESET_CONFIRMATION);
    }
  });

  it('goes ahead in production with the flag, in a sandbox without it, and without --reset', async () => {
    const runs: [Record<string, string>, string[]][] = [
      [{}, ['--orders', '10', '--reset', RESET_CONFIRMATION]],
      [{}, [RESET_CONFIRMATION, '--reset', '--orders', '10']],
      [{ BOOKING_ENV: 'sandbox' }, ['--orders', '10', '--reset']],
      [{}, ['--orders', '10']],
    ];
    for (const [env, args] of runs) {
      const { ctx, opened } = context(env);
      await expect(seedCommand(ctx, args), args.join(' ')).rejects.toBeInstanceOf(Opened);
      expect(opened()).toBe(1);
    }
  });

  it('names the flag as a usage error when it comes without --reset', async () => {
    const { ctx, lines, opened } = context({});
    expect(await seedCommand(ctx, ['--orders', '10', RESET_CONFIRMATION])).toBe(1);
    expect(opened()).toBe(0);
    expect(lines.join('\n')).toContain(`${RESET_CONFIRMATION} only goes with --reset`);
  });
});
