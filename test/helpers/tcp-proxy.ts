/**
 * A TCP proxy in the test process, between the server under test and PostgreSQL: cutting
 * it makes the database unreachable for that server alone (the shared PostgreSQL server
 * keeps running for everyone else), restoring it brings the database back on the same port.
 * Stalling it is the worst case: connections stay open and nothing passes either way.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Refuses new connections and drops the open ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  /** Keeps every connection open, new ones too, and passes nothing either way (a hung peer). */
  stall(): void;
  /** Ends a stall: the stalled connections are dropped; new ones pass again. */
  unstall(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let stalled = false;
  const server = net.createServer((client) => {
    track(client);
    if (stalled) return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    port,
    cut: stop,
    restore: () => listen(port),
    stall: () => {
      stalled = true;
      for (const socket of sockets) socket.unpipe().pause();
    },
    unstall: () => {
      stalled = false;
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}

/** A proxy in front of the PostgreSQL server of `url`, and the same URL through it. */
export async function proxyDatabaseUrl(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const direct = new URL(url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return { proxy, url: proxied.toString() };
}
