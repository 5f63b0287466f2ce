/**
 * The admin socket's path (DATA_DIR/admin.sock) as both sides see it. A path longer than a
 * Unix socket allows was truncated by the system, out of the data directory, so a `cli`
 * command could reach another server's socket and run on its database: the client refuses
 * it before connecting. A socket that cannot listen says what that costs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runThroughServer } from '../../src/admin/admin-client.js';
import { openAdminSocket } from '../../src/admin/admin-socket.js';
import { ConfigError } from '../../src/config.js';

const silent = { out: () => {}, err: () => {} };

describe('the admin socket path', () => {
  it('is refused by the client when the system would truncate it', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-admin-'));
    try {
      const long = path.join(parent, 'd'.repeat(120));
      const call = runThroughServer(long, { command: 'outbox', args: [] }, silent);
      await expect(call).rejects.toBeInstanceOf(ConfigError);
      await expect(call).rejects.toThrow(/DATA_DIR is too long for its admin socket/);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('says what is lost when the socket cannot listen', async () => {
    const missing = path.join(os.tmpdir(), `booking-admin-missing-${process.pid}`, 'data');
    const opened = openAdminSocket(missing, async () => 0);
    await expect(opened).rejects.toThrow(
      `The admin socket ${path.join(missing, 'admin.sock')} cannot listen`,
    );
    await expect(opened).rejects.toThrow(/`cli` commands cannot run while this server holds/);
  });
});
