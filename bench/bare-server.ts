/**
 * The limit for a cheap request (DESIGN.md section 10): a bare node:http server on the same
 * machine answering every request with a JSON body of the given size, keep-alive, as the
 * service's responses are. Run as a child: `bare-server.ts <port> <body bytes>`.
 */
import http from 'node:http';

const [port = '0', bytes = '1024'] = process.argv.slice(2);
const filler = 'x'.repeat(Math.max(0, Number(bytes) - '{"data":""}'.length));
const body = Buffer.from(JSON.stringify({ data: filler }));

http
  .createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  })
  .listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
