/**
 * A real SMTP server for the mail tests (smtp-server on loopback, no TLS, no auth), and a
 * small MIME reader for what it receives: enough to check headers and decode the parts.
 */
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export interface SmtpBehaviour {
  /** Called when a message's data starts; the server answers once the promise settles. */
  beforeAccept?: () => Promise<void>;
  /** SMTP reply code to refuse every recipient with (e.g. 550). */
  rejectRecipients?: number;
}

/** A port nothing listens on (for "SMTP is down"), free for a server to take later. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startSmtpServer(
  port = 0,
  behaviour: SmtpBehaviour = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 500,
    onRcptTo(_address, _session, callback) {
      if (!behaviour.rejectRecipients) return callback();
      const error = new Error('No such mailbox here') as Error & { responseCode: number };
      error.responseCode = behaviour.rejectRecipients;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const accept = () => {
          received.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        if (behaviour.beforeAccept) void behaviour.beforeAccept().then(accept, accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as net.AddressInfo;
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ParsedMail {
  headers: Map<string, string>;
  /** Decoded bodies by content type (text/plain, text/html). */
  parts: Map<string, string>;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), as nodemailer writes non-plain headers. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function splitHead(raw: string): [Map<string, string>, string] {
  const at = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(
      line.slice(0, colon).trim().toLowerCase(),
      decodeWords(line.slice(colon + 1).trim()),
    );
  }
  return [headers, raw.slice(at + 4)];
}

function decodeQuotedPrintable(text: string): string {
  const flat = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < flat.length; i++) {
    const hex = flat.slice(i + 1, i + 3);
    if (flat[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(flat.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

export function parseMail(raw: string): ParsedMail {
  const [headers, body] = splitHead(raw);
  const parts = new Map<string, string>();
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) {
    parts.set(contentType.split(';')[0]!, decodeBody(headers, body));
    return { headers, parts };
  }
  const sections = body.split(`--${boundary}`).slice(1, -1);
  for (const section of sections) {
    const [partHeaders, partBody] = splitHead(section.replace(/^\r\n/, ''));
    const type = (partHeaders.get('content-type') ?? 'text/plain').split(';')[0]!;
    parts.set(type, decodeBody(partHeaders, partBody.replace(/\r\n$/, '')));
  }
  return { headers, parts };
}
