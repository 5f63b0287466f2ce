/**
 * Connection slots (issue 26, point 4) against a real listening server: a client that never
 * sends a byte and a client that never reads lose their slot within seconds (timeouts are
 * short here), and with the cap filled by idle connections a health check and an
 * established keep-alive client still get answers, while idle connections make way.
 * Closing is asserted on the server's side of each socket (a client that does not read
 * would never see it); the bounds waited for are generous, never asserted as speed.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** A listening app, with the server's side of each connection by the client's port. */
async function listening(env: Record<string, string>) {
  const t = await createTestApp(env);
  const serverSide = new Map<number, net.Socket>();
  // First, so it sees a connection the cap refuses before that one is gone.
  t.app.server.prependListener('connection', (socket: net.Socket) =>
    serverSide.set(socket.remotePort!, socket),
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as net.AddressInfo).port;
  return { t, port, serverSide };
}

/** Resolves when the server's side of `client` has closed; rejects after `ms`. */
async function closedByServer(
  serverSide: Map<number, net.Socket>,
  client: net.Socket,
  ms = 15_000,
) {
  // The server may accept a moment after the client connected.
  for (let i = 0; i < 100 && !serverSide.has(localPorts.get(client)!); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const socket = serverSide.get(localPorts.get(client)!);
  if (!socket) throw new Error('the server never saw this connection');
  await new Promise<void>((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error('the server kept the connection')), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Each client's own port, kept: a socket the server closed no longer says it. */
const localPorts = new WeakMap<net.Socket, number>();

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      localPorts.set(socket, socket.localPort!);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** One request on an open keep-alive connection; resolves with the status line's code. */
function ask(socket: net.Socket, path = '/healthz'): Promise<number> {
  return new Promise((resolve, reject) => {
    let raw = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const end = raw.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(raw.subarray(0, end).toString())?.[1];
      if (end >= 0 && length !== undefined && raw.length >= end + 4 + Number(length)) {
        socket.off('data', onData).off('close', onClose);
        resolve(Number(raw.subarray(9, 12).toString()));
      }
    };
    const onClose = () =>
      reject(new Error(`closed before an answer: ${raw.subarray(0, 40).toString()}`));
    socket.on('data', onData).once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  });
}

/** Until the server holds at most `count` connections (it closes its side a moment later). */
async function openConnections(t: TestApp): Promise<number> {
  return new Promise((resolve, reject) =>
    t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

describe('idle and never-reading clients', () => {
  let t: TestApp;
  let port: number;
  let serverSide: Map<number, net.Socket>;
  beforeAll(async () => {
    ({ t, port, serverSide } = await listening({
      HEADERS_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '500',
      SEND_TIMEOUT_MS: '1000',
    }));
  });
  afterAll(async () => t.close());

  it('closes a connection that never sends a byte', async () => {
    const client = await connect(port);
    client.on('data', () => undefined);
    await closedByServer(serverSide, client);
  });

  it('closes a connection whose client never reads what it asked for', async () => {
    const client = await connect(port);
    client.on('error', () => undefined);
    // Pipelined requests for a large document, never read: more than any socket buffer holds.
    client.pause();
    for (let i = 0; i < 100; i++) client.write('GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n');
    try {
      await closedByServer(serverSide, client);
    } finally {
      client.destroy();
    }
  });

  it('keeps a client that reads, however many documents it asks for', async () => {
    const client = await connect(port);
    for (let i = 0; i < 5; i++) expect(await ask(client, '/openapi.json')).toBe(200);
    client.destroy();
  });
});

describe('the connection cap', () => {
  const CAP = 20;
  let t: TestApp;
  let port: number;
  let serverSide: Map<number, net.Socket>;
  beforeAll(async () => {
    // Long timeouts: only the cap may close anything during these tests.
    ({ t, port, serverSide } = await listening({
      MAX_CONNECTIONS: String(CAP),
      HEADERS_TIMEOUT_MS: '60000',
      REQUEST_TIMEOUT_MS: '60000',
      KEEP_ALIVE_TIMEOUT_MS: '60000',
    }));
  });
  afterAll(async () => t.close());

  it('answers health checks and established clients when idle connections fill it', async () => {
    const established = await connect(port);
    expect(await ask(established)).toBe(200);

    const idle: net.Socket[] = [];
    for (let i = 0; i < CAP + 10; i++) {
      const socket = await connect(port);
      socket.on('error', () => undefined);
      idle.push(socket);
    }
    const check = await connect(port);
    expect(await ask(check)).toBe(200);
    expect(await ask(established)).toBe(200);
    // The oldest idle connections made way; the server never held more than the cap.
    await closedByServer(serverSide, idle[0]!);
    expect(await openConnections(t)).toBeLessThanOrEqual(CAP);
    for (const socket of [...idle, check, established]) socket.destroy();
  });

  /** Until the server holds no connection of an earlier test (it closes its side a moment later). */
  const drained = async () => {
    for (let i = 0; i < 100 && (await openConnections(t)) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** A request whose body never finishes arriving: in flight until REQUEST_TIMEOUT_MS. */
  const halfSent = async () => {
    const client = await connect(port);
    client.on('error', () => undefined);
    client.write(
      'POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    return client;
  };

  it('refuses a newcomer only when every slot holds a request in flight', async () => {
    await drained();
    const clients: net.Socket[] = [];
    for (let i = 0; i < CAP; i++) clients.push(await halfSent());
    // Each is in flight once the server has its headers.
    for (let i = 0; i < 100 && (await openConnections(t)) < CAP; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const newcomer = await connect(port);
    newcomer.on('error', () => undefined);
    await closedByServer(serverSide, newcomer);
    // None of the requests in flight was closed for it.
    for (const client of clients)
      expect(serverSide.get(localPorts.get(client)!)!.destroyed).toBe(false);
    for (const client of clients) client.destroy();
  });

  it('closes the keep-alive connection resting longest between requests for a newcomer', async () => {
    await drained();
    const clients: net.Socket[] = [];
    for (let i = 0; i < CAP; i++) {
      const client = await connect(port);
      client.on('error', () => undefined);
      expect(await ask(client)).toBe(200);
      clients.push(client);
    }
    // The first asks again: it is the one that rested least, not the oldest.
    expect(await ask(clients[0]!)).toBe(200);
    const check = await connect(port);
    expect(await ask(check)).toBe(200);
    await closedByServer(serverSide, clients[1]!);
    expect(await ask(clients[0]!)).toBe(200);
    for (const client of [...clients, check]) client.destroy();
  });

  it('closes a connection answered while it still trickles its body, for a newcomer', async () => {
    await drained();
    const clients: net.Socket[] = [];
    for (let i = 0; i < CAP; i++) {
      const client = await connect(port);
      client.on('error', () => undefined);
      // Answered without its body (a GET reads none), which then comes a byte at a time.
      const answered = new Promise((resolve) => client.once('data', resolve));
      client.write('GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{');
      await answered;
      clients.push(client);
    }
    const check = await connect(port);
    expect(await ask(check)).toBe(200);
    await closedByServer(serverSide, clients[0]!);
    for (const client of [...clients, check]) client.destroy();
  });
});
