/**
 * A named statement's rows described once per connection. node-postgres asks PostgreSQL to
 * describe a statement's result (a Describe message) on every execution, and on every
 * answer parses the RowDescription and builds the result's field list, one type parser per
 * column and an empty row object (its `Result.addFields`): 2 % of one order's CPU and of a
 * booking's in the profiles (docs/performance.md, issue 27, eighteenth pass), for a
 * description that cannot change. On one connection a prepared statement's result type is
 * fixed: PostgreSQL refuses to run it with another ("cached plan must not change result
 * type", which the pool clients answer by preparing it again under a new name:
 * pool-clients.ts, retry.ts). So the first execution of a name on a connection is described
 * as before and the description kept; the later ones send only Bind and Execute, and their
 * rows are read with the kept description.
 *
 * Only statements that return rows are kept (a RowDescription came back); one that returns
 * none (NoData) is described each time, as before.
 *
 * Behind a transaction-mode pooler (PgBouncer with `max_prepared_statements`) one client
 * connection's statement may run on several server connections, each prepared by the
 * pooler on its own: after a migration adds a column (the only change to a table a release's
 * migrations make under the one before: docs/operations.md), a fresh one's rows have a
 * column more than the kept description. Such a row is refused as PostgreSQL refuses an
 * outdated statement (0A000, "cached plan must not change result type"), the description is
 * forgotten, and the pool clients prepare the statement again under a new name, or the
 * transaction runs again, as they do for PostgreSQL's own refusal. Unlike PostgreSQL's, this
 * refusal comes after the statement ran, so only a statement whose running again cannot
 * write twice reads with a kept description (`mayReuseShape`).
 *
 * A value node-postgres cannot serialize (JSON of a BigInt, of a cycle) fails the statement
 * in the client, before it runs: node-postgres then sends Close for the name, so PostgreSQL
 * forgets the statement, but its own record of the connection's parsed names keeps it, and
 * every later execution of the name on that connection failed with 26000 ("prepared
 * statement does not exist"). Such a failure makes the connection forget the name too (its
 * parsed names, and its kept shape), so the next execution parses it again.
 *
 * DescribedQuery extends node-postgres's Query through members its typings leave out
 * (`prepare`, `handleDataRow`, `handleError`, `handleReadyForQuery`, `_result`, the
 * connection's `parsedStatements` and `submittedNamedStatements`; node-postgres 8.23);
 * test/postgres/described-query.test.ts fails on a real server if an upgrade changes them.
 */
import pg from 'pg';

/** What node-postgres's Result builds from a RowDescription (its `addFields`). */
interface RowShape {
  fields: unknown[];
  parsers: unknown[] | undefined;
  empty: object | null;
}

/** Row shapes by statement name, for one connection. */
export type RowShapes = Map<string, RowShape>;

interface ResultInternals {
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}
interface QueryInternals {
  name: string | undefined;
  handleDataRow(message: { fields: unknown[] }): void;
  handleError(error: Error, connection: pg.Connection): void;
  handleReadyForQuery(connection: pg.Connection): void;
  _canceledDueToError: Error | false;
  prepare(connection: pg.Connection): void;
  handleRowDescription(message: unknown): void;
  hasBeenParsed(connection: pg.Connection): boolean;
  _result: ResultInternals;
  _accumulateRows: boolean;
}
interface Describing {
  describe: (config: object) => void;
}
/** node-postgres's record of the names parsed (and being parsed) on a connection. */
interface ParsedNames {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
}

/**
 * Whether a failure came from the client, not from PostgreSQL (which gives every error a
 * SQLSTATE `code`; our own refusal of a row carries 0A000 too): a value that could not be
 * serialized, or a connection lost, where forgetting the name costs nothing.
 */
const failedInClient = (error: unknown) =>
  typeof (error as { code?: unknown } | null)?.code !== 'string';

const base = pg.Query.prototype as unknown as QueryInternals;
const skipDescribe = (): void => undefined;

/**
 * Whether a statement may read its rows with a kept description: a refused row is answered
 * by running it again, so it must be a SELECT (it writes nothing), or run inside a
 * transaction the refusal aborts (rolled back, then run again whole: retry.ts), and not
 * carry that transaction's COMMIT (PostgreSQL would commit what the client refused:
 * pipelined-transaction.ts).
 */
export const mayReuseShape = (text: string, inTransaction: boolean, commits: boolean): boolean =>
  !commits && (inTransaction || /^\s*select\s/i.test(text));

/** PostgreSQL's refusal of an outdated statement, as pool-clients.ts and retry.ts know it. */
function outdated(): Error {
  return Object.assign(
    new Error(
      "cached plan must not change result type (a row's columns differ from the statement's kept description)",
    ),
    { code: '0A000' },
  );
}

/** A query that, named and already described on its connection, is not described again. */
export class DescribedQuery extends pg.Query {
  /** The connection's kept shapes; set for a named statement only. */
  shapes: RowShapes | undefined;
  /** The kept shape this execution reads its rows with, when it was not described. */
  private reused: RowShape | undefined;
  /** Failed in the client: the name is forgotten once the server has answered (Close). */
  private closed = false;

  prepare(connection: pg.Connection): void {
    const self = this as unknown as QueryInternals;
    const known =
      this.shapes && self.name !== undefined && self.hasBeenParsed(connection)
        ? this.shapes.get(self.name)
        : undefined;
    if (!known) {
      base.prepare.call(this, connection);
      return;
    }
    // The result is set up as its RowDescription would have set it, before any row arrives.
    const result = self._result;
    result.fields = known.fields;
    result._parsers = known.parsers;
    result._prebuiltEmptyResultObject = known.empty;
    // What handleRowDescription decides: rows are kept for the callback (the only form run).
    self._accumulateRows = true;
    this.reused = known;
    // node-postgres's own prepare (Bind, its error path, Execute, Sync) without the Describe.
    const messages = connection as unknown as Describing;
    const describe = messages.describe;
    messages.describe = skipDescribe;
    try {
      base.prepare.call(this, connection);
    } finally {
      messages.describe = describe;
    }
  }

  handleDataRow(message: { fields: unknown[] }): void {
    const self = this as unknown as QueryInternals;
    if (this.reused !== undefined && message.fields.length !== this.reused.fields.length) {
      // The rest of the answer is skipped, and the error handed over at ReadyForQuery.
      this.reused = undefined;
      if (self.name !== undefined) this.shapes?.delete(self.name);
      if (!self._canceledDueToError) self._canceledDueToError = outdated();
      return;
    }
    base.handleDataRow.call(this, message);
  }

  handleError(error: Error, connection: pg.Connection): void {
    const self = this as unknown as QueryInternals;
    if (self.name !== undefined && failedInClient(error)) this.closed = true;
    base.handleError.call(this, error, connection);
  }

  /**
   * The end of the answer: after a Parse sent with the failed statement has been answered
   * (ParseComplete records the name as parsed), and before the next query is sent.
   */
  handleReadyForQuery(connection: pg.Connection): void {
    const self = this as unknown as QueryInternals;
    if (this.closed && self.name !== undefined) {
      const names = connection as unknown as ParsedNames;
      delete names.parsedStatements[self.name];
      delete names.submittedNamedStatements[self.name];
      this.shapes?.delete(self.name);
    }
    base.handleReadyForQuery.call(this, connection);
  }

  handleRowDescription(message: unknown): void {
    base.handleRowDescription.call(this, message);
    const self = this as unknown as QueryInternals;
    if (this.shapes === undefined || self.name === undefined) return;
    const result = self._result;
    this.shapes.set(self.name, {
      fields: result.fields,
      parsers: result._parsers,
      empty: result._prebuiltEmptyResultObject,
    });
  }
}
