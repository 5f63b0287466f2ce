/**
 * What the service's pool clients send, in one wrapper of node-postgres's `client.query`
 * installed on each new connection: marked SQL as named statements (db/prepared.ts), every
 * plain query through node-postgres's callback form (db/callback-query.ts), and a
 * transaction's BEGIN and COMMIT, and a list page's generic plan setting, in the messages of
 * its statements (db/pipelined-transaction.ts); and a bound on how long a statement may go
 * unanswered before its connection is dropped. PostgreSQL only: the embedded database has no
 * socket to save round trips on, or to stall.
 */
import type pg from 'pg';
import { callbackQuery, isPlainQuery, protoQuery } from './callback-query.js';
import { commits, TransactionEnds } from './pipelined-transaction.js';
import { nameOf, renamed, wantsGenericPlan } from './prepared.js';
import { isOutdatedPlan } from './retry.js';

/** Ends a connection at once, whatever it waits for: 'end' follows ('error' too, mid-query). */
export const dropConnection = (client: pg.Client) => client.connection.stream.destroy();

/**
 * How long a pool client's statement may go unanswered before its connection is dropped;
 * 0 until the owner says (db/database.ts `boundAnswers`), so the migrations run at start,
 * which lift the server's statement bound, are not cut. Read at each statement.
 */
export interface AnswerBound {
  ms: number;
}

/**
 * `answer`, with `client`'s connection dropped if it is not in within `ms`. A connection that
 * stalled without a word (a NAT or firewall that forgot the flow, a peer or a pooler that
 * hangs, a host gone while something still acknowledges its packets) neither errs nor ends
 * for a quarter of an hour of retransmissions, or ever: the statement would hold its request
 * and its pool connection that long, and a few such take the whole pool. Dropped, the
 * statement fails as a lost connection (a 503, db/errors.ts) and the pool opens a new one.
 */
function answeredWithin<T>(client: pg.Client, answer: Promise<T>, ms: number): Promise<T> {
  const timer = setTimeout(() => dropConnection(client), ms);
  timer.unref();
  return answer.finally(() => clearTimeout(timer));
}

/**
 * Makes a pool's clients send marked SQL as named statements (node-postgres parses a name
 * once per connection, then only binds and executes it). Every plain query goes through
 * node-postgres's callback form (db/callback-query.ts: its promise form kept the rows alive
 * into V8's old generation), and a transaction's `begin` and `commit` go out with its first
 * and last statements where they can (db/pipelined-transaction.ts): a statement with
 * parameters carries them, unless it is named and not yet parsed on the connection.
 */
export function wrapPoolClients(pool: Pick<pg.Pool, 'on'>, bound: AnswerBound = { ms: 0 }): void {
  pool.on('connect', (client) => {
    const passThrough = protoQuery(client);
    const query = callbackQuery(client);
    const ends = new TransactionEnds((text) => query(text));
    /** Names this connection has run: their Parse is not sent again. */
    const parsed = new Set<string>();
    /** `run` once a held begin is sent (none held: at once, no promise in between). */
    const afterBegin = (run: () => Promise<pg.QueryResult>) =>
      ends.held ? ends.flush().then(run) : run();
    /** A statement with parameters: with the held begin when it can carry it, and its COMMIT. */
    const send = (text: string, values: unknown[], name: string | undefined) => {
      const commit = commits(text);
      const isParsed = name === undefined || parsed.has(name);
      const outsideTransaction = !ends.held && client.getTransactionStatus() === 'I';
      const begins = ends.carry(isParsed);
      const generic =
        name !== undefined && isParsed && outsideTransaction && wantsGenericPlan(text);
      const carried =
        begins || commit || generic ? { begins, commits: commit, generic } : undefined;
      const run = () =>
        query(text, values, name, carried).then((result) => {
          if (name !== undefined) parsed.add(name);
          if (commit) ends.committed = true;
          return result;
        });
      return begins ? run() : afterBegin(run);
    };
    const named = (
      text: string,
      values: unknown[],
      name: string,
      again = false,
    ): Promise<pg.QueryResult> => {
      // Read before sending: the status after a failure may still be the one before it (an
      // error is handed over before the ReadyForQuery that follows it is read).
      const inTransaction = ends.held || client.getTransactionStatus() !== 'I';
      return send(text, values, name).catch((error: unknown) => {
        // Failed in the client (a value it could not serialize): node-postgres closed the
        // statement on the server, and the connection forgets it (described-query.ts).
        if (typeof (error as { code?: unknown } | null)?.code !== 'string') parsed.delete(name);
        if (again || !isOutdatedPlan(error)) throw error;
        const fresh = renamed(text, name);
        // Now aborted: the transaction is run again (db/retry.ts).
        if (inTransaction) throw error;
        return named(text, values, fresh, true);
      });
    };
    const dispatch = (args: unknown[]) => {
      if (!isPlainQuery(args)) {
        // Ahead of it in node-postgres's queue; a failed BEGIN fails what follows too.
        if (ends.held) void ends.flush().catch(() => undefined);
        return passThrough(...args);
      }
      const [text, values] = args as [string | pg.QueryConfig, unknown[] | undefined];
      const answer = ends.answer(text, values);
      if (answer) return answer;
      if (typeof text !== 'string' || !values) return afterBegin(() => query(text, values));
      const name = nameOf(text);
      if (name !== undefined) return named(text, values, name);
      // Without parameters node-postgres uses the simple protocol: nothing rides along.
      if (values.length === 0) return afterBegin(() => query(text, values));
      return send(text, values, undefined);
    };
    Object.defineProperty(client, 'query', {
      configurable: true,
      value: (...args: unknown[]) => {
        const answer = dispatch(args);
        return bound.ms > 0 && answer instanceof Promise
          ? answeredWithin(client, answer, bound.ms)
          : answer;
      },
    });
  });
}
