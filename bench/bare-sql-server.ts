/**
 * The least an API can do for a read: a bare node:http server that, for each request, runs
 * the scenario's own SQL through pg (a pool of 10, the service's default) and answers with
 * the rows' JSON as it is, no authentication, validation, mapping or hooks. What it reaches
 * against pgbench on the same SQL shows what the machine (the load generator's CPU, socket
 * writes) leaves for any Node server, before our code. Run as a child:
 * `bare-sql-server.ts <port> <database url> <file of compiled queries (JSON)>`.
 */
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';

const [port = '0', url, file] = process.argv.slice(2);
const queries = JSON.parse(fs.readFileSync(file!, 'utf8')) as {
  sql: string;
  parameters: unknown[];
}[];
const pool = new pg.Pool({ connectionString: url, max: 10 });
let next = 0;

http
  .createServer((_request, response) => {
    const query = queries[next++ % queries.length]!;
    pool.query(query.sql, query.parameters).then(
      (result) => {
        const body = JSON.stringify({ data: result.rows });
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      },
      () => {
        response.writeHead(500).end();
      },
    );
  })
  .listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => void pool.end().then(() => process.exit(0)));
