/**
 * The floor (DESIGN.md section 10, issue 27): a bare Fastify + pg server that answers the
 * bench's reads with one statement each, whose whole JSON body PostgreSQL builds
 * (bench/floor-sql.ts), sent as the text it is: no authentication, validation, mapping or
 * serialization in Node. What a hand-written route costs, which ours is measured against.
 * Run as a child: `floor-server.ts <port> <database url> <plain|prepared> <pool size>`;
 * `prepared` sends each statement text as a named statement (pg's `name:`), parsed and
 * planned once per connection, after which PostgreSQL may keep a generic plan.
 */
import Fastify from 'fastify';
import pg from 'pg';
import {
  eventListStatement,
  orderListStatement,
  orderStatement,
  type Statement,
} from './floor-sql.js';

const [port = '0', url, mode = 'plain', poolSize = '10'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: Number(poolSize) });
const names = new Map<string, string>();

function run(statement: Statement): Promise<pg.QueryResult<{ body: string | null }>> {
  if (mode !== 'prepared') return pool.query(statement.text, statement.values);
  let name = names.get(statement.text);
  if (name === undefined) names.set(statement.text, (name = `floor_${names.size + 1}`));
  return pool.query({ name, text: statement.text, values: statement.values });
}

const app = Fastify({ logger: false });
type Query = { Querystring: Record<string, string> };

async function answer(
  reply: { code(n: number): unknown; type(t: string): unknown },
  statement: Statement,
) {
  const body = (await run(statement)).rows[0]?.body;
  if (body == null) {
    reply.code(404);
    return '{"error":"not found"}';
  }
  reply.type('application/json; charset=utf-8');
  return body;
}

app.get('/', () => 'floor');
app.get<Query>('/api/orders', (request, reply) => answer(reply, orderListStatement(request.query)));
app.get<Query>('/api/events', (request, reply) => answer(reply, eventListStatement(request.query)));
app.get<{ Params: { id: string } }>('/api/orders/:id', (request, reply) =>
  answer(reply, orderStatement(request.params.id)),
);

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
