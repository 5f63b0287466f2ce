/**
 * A name server on a loopback UDP port, for the webhook resolver (host-lookups.ts): the test
 * says how each question is answered (addresses, "no such name", or silence, like a name
 * server that drops queries) and sees every question asked.
 */
import dgram from 'node:dgram';

export type DnsAnswer = string[] | 'nxdomain' | 'silent';

export interface FakeDns {
  /** `127.0.0.1:port`, as `Resolver.setServers` takes it. */
  server: string;
  /** Every question so far: `name type` (`A`, `AAAA` ...). */
  asked: string[];
  /** `type` is `A`, `AAAA`, or another type's number. */
  answer: (reply: (name: string, type: string) => DnsAnswer) => void;
  close: () => Promise<void>;
}

const TYPES: Record<number, string> = { 1: 'A', 28: 'AAAA' };

/** The question's name and where it ends (after its type and class). */
function question(packet: Buffer): { name: string; type: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (packet[at]! > 0) {
    const length = packet[at]!;
    labels.push(packet.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  const type = packet.readUInt16BE(at + 1);
  return { name: labels.join('.').toLowerCase(), type: TYPES[type] ?? String(type), end: at + 5 };
}

function rdata(type: string, address: string): Buffer | undefined {
  if (type === 'A' && /^\d+\.\d+\.\d+\.\d+$/.test(address))
    return Buffer.from(address.split('.').map(Number));
  if (type === 'AAAA' && address.includes(':')) {
    const [head, tail = ''] = address.split('::');
    const parts = (s: string) => (s ? s.split(':').map((p) => parseInt(p, 16)) : []);
    const h = parts(head!);
    const t = parts(tail);
    const words = [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
    const out = Buffer.alloc(16);
    words.forEach((w, i) => out.writeUInt16BE(w, i * 2));
    return out;
  }
  return undefined;
}

/** The reply to `query`: its question echoed, then an answer record per address. */
function reply(query: Buffer, answer: string[] | 'nxdomain'): Buffer {
  const { type, end } = question(query);
  const records = answer === 'nxdomain' ? [] : answer.flatMap((a) => rdata(type, a) ?? []);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // the id
  header.writeUInt16BE(answer === 'nxdomain' ? 0x8183 : 0x8180, 2); // response, RD, RA, rcode
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const typeCode = type === 'AAAA' ? 28 : 1;
  const answers = records.map((data) => {
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(typeCode, 2);
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const asked: string[] = [];
  let decide: (name: string, type: string) => DnsAnswer = () => 'nxdomain';
  socket.on('message', (packet, from) => {
    const { name, type } = question(packet);
    asked.push(`${name} ${type}`);
    const answer = decide(name, type);
    if (answer === 'silent') return;
    socket.send(reply(packet, answer), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    server: `127.0.0.1:${port}`,
    asked,
    answer: (next) => {
      decide = next;
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
