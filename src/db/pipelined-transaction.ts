/**
 * A transaction's BEGIN and COMMIT sent in the same message as its first and last
 * statements. Kysely opens a transaction with a `begin` of its own and ends it with a
 * `commit`, two round trips in which nothing else happens: a booking paid five (its read,
 * begin, seats, writes, commit), and each write to PostgreSQL's socket costs the service and
 * the server a wake-up (docs/performance.md, issue 27, ninth pass). On a real server:
 *
 * - `begin` is held, and the statement after it carries it: BEGIN's Parse, Bind and Execute
 *   go out ahead of the statement's, one Sync for both (the extended protocol's pipelining;
 *   a transaction opened by an explicit BEGIN outlives the Sync, as in libpq's pipeline
 *   mode). A transaction that ends before any statement sends nothing at all.
 * - a statement whose text ends with COMMITS (a write batch that is its transaction's last
 *   statement, db/write-batch.ts) carries COMMIT after it, and the `commit` that follows is
 *   answered without being sent. When the statement fails, PostgreSQL skips the COMMIT (it
 *   skips to the Sync) and the transaction is rolled back as before; when COMMIT fails, the
 *   statement's caller gets its error.
 *
 * A list page marked to run with the generic plan (db/prepared.ts) outside a transaction goes
 * out after `select set_config('plan_cache_mode', 'force_generic_plan', true)` (a statement
 * named once per connection) in the same way: PostgreSQL reads the setting when it binds
 * the statement, and a setting made local lasts until the end of the transaction, which
 * here is the extended protocol's own, ended by the Sync: the session's setting is back as
 * it was whatever happens, with nothing sent to reset it, and behind a transaction-mode
 * pooler both stay on one server connection.
 * Inside a caller's transaction the setting would last until that transaction's end, so a
 * page read there is left to PostgreSQL. Only a statement already parsed on the connection
 * carries it (as for BEGIN, below); its first execution is planned for its values, as
 * PostgreSQL's first five are anyway.
 *
 * The held begin is sent on its own first, as before, ahead of what cannot carry it: a
 * statement without parameters (node-postgres sends it in the simple protocol, whose text may
 * hold several statements, as a migration's does), a named statement not yet parsed on the
 * connection (node-postgres records a name as parsed on the first ParseComplete of the
 * message, which would be BEGIN's), and anything that is not a plain query (a cursor, a call
 * with its own callback).
 *
 * PipelinedQuery extends node-postgres's Query (through DescribedQuery: a named statement is
 * described once per connection) through members its typings leave out (`prepare`,
 * `_getRows`, `handleCommandComplete`, and the connection's `parsedStatements`: node-postgres
 * 8.23); test/postgres/pipelined-transaction.test.ts and generic-plans.test.ts fail on a real
 * server if an upgrade changes them (round trips, rollbacks, failed commits, the setting's
 * statement).
 */
import pg from 'pg';
import { DescribedQuery } from './described-query.js';

/** Ends the text of a statement that is its transaction's last: COMMIT goes out with it. */
export const COMMITS = '\n-- and commit';

/** What a statement carries in its message beside itself. */
export interface Carried {
  /** The transaction's BEGIN, ahead of it. */
  begins: boolean;
  /** The transaction's COMMIT, after it. */
  commits: boolean;
  /** The generic plan: the setting that forces it, until the Sync, ahead (never in a transaction). */
  generic: boolean;
}

const FORCE_GENERIC = "select set_config('plan_cache_mode', 'force_generic_plan', true)";
/**
 * The setting's own statement name. Sent unnamed, PostgreSQL parsed and planned the setting
 * ahead of every page (17 µs of its time a page: docs/performance.md, issue 27,
 * twenty-seventh pass); named, it is parsed once per connection. Its Parse is recorded in
 * node-postgres's own book of a connection's statements as soon as it is sent: it is the
 * first message of its batch (never in a transaction, so no BEGIN ahead of it) and its text
 * reads no table, so only a lost connection could keep it from being made.
 */
const FORCE_GENERIC_NAME = 'booking_force_generic_plan';

/** What node-postgres's Query and Connection do and their typings leave out or misstate. */
interface QueryInternals {
  handleCommandComplete(message: unknown, connection: pg.Connection): void;
}
interface Messages {
  parse(query: { text: string; name?: string }): void;
  bind(config: { statement?: string }): void;
  execute(config: object): void;
  sync(): void;
}
const base = pg.Query.prototype as unknown as QueryInternals;

/** An unnamed statement's Parse, Bind and Execute (BEGIN, COMMIT, a setting), without a Sync. */
function unnamed(connection: pg.Connection, text: string): void {
  const messages = connection as unknown as Messages;
  messages.parse({ text });
  messages.bind({});
  messages.execute({});
}

/** The generic plan's setting, parsed once per connection, bound and executed each time. */
function forceGenericPlan(connection: pg.Connection): void {
  const messages = connection as unknown as Messages & {
    parsedStatements: Record<string, string | undefined>;
  };
  if (messages.parsedStatements[FORCE_GENERIC_NAME] === undefined) {
    messages.parse({ text: FORCE_GENERIC, name: FORCE_GENERIC_NAME });
    messages.parsedStatements[FORCE_GENERIC_NAME] = FORCE_GENERIC;
  }
  messages.bind({ statement: FORCE_GENERIC_NAME });
  messages.execute({});
}

/**
 * A statement with BEGIN or the generic plan's setting ahead of it and/or COMMIT after it in
 * its message; answers as the statement alone would (or with COMMIT's error).
 */
export class PipelinedQuery extends DescribedQuery {
  readonly begins: boolean;
  readonly commits: boolean;
  readonly generic: boolean;
  /** Answers still to skip before the statement's own: BEGIN's, the setting's (its row too). */
  private before: number;
  private done = false;

  constructor(
    text: string,
    values: unknown[] | undefined,
    callback: (error: Error | null | undefined, result: unknown) => void,
    carried: Carried,
  ) {
    super(text, values, callback);
    this.begins = carried.begins;
    this.commits = carried.commits;
    this.generic = carried.generic;
    this.before = (carried.begins ? 1 : 0) + (carried.generic ? 1 : 0);
  }

  requiresPreparation(): boolean {
    return true;
  }

  override prepare(connection: pg.Connection): void {
    // Buffered with the statement's messages: node-postgres corks the socket around prepare.
    if (this.begins) unnamed(connection, 'begin');
    if (this.generic) forceGenericPlan(connection);
    super.prepare(connection);
  }

  /** node-postgres's own, with COMMIT's messages before the Sync. */
  _getRows(connection: pg.Connection): void {
    const messages = connection as unknown as Messages;
    messages.execute({});
    if (this.commits) unnamed(connection, 'commit');
    messages.sync();
  }

  /** The setting's row is not the statement's. */
  override handleDataRow(message: { fields: unknown[] }): void {
    if (this.before > 0) return;
    super.handleDataRow(message);
  }

  handleCommandComplete(message: unknown, connection: pg.Connection): void {
    if (this.before > 0) {
      this.before--;
      return;
    }
    // COMMIT's comes after the statement's.
    if (this.done) return;
    this.done = true;
    base.handleCommandComplete.call(this, message, connection);
  }
}

const answered = (command: string) =>
  Promise.resolve({ command, rowCount: null, oid: 0, rows: [], fields: [] } as pg.QueryResult);

/** A client's transaction ends: a held begin, a commit already sent, and what to do next. */
export class TransactionEnds {
  /** Whether a `begin` was answered and not yet sent. */
  held = false;
  /** Whether the last statement carried COMMIT: the `commit` after it is answered here. */
  committed = false;

  /** `send` runs SQL text on the client now, in node-postgres's queue order. */
  constructor(private readonly send: (text: string) => Promise<unknown>) {}

  /**
   * The answer to `text` when it is sent nowhere: `begin` is held; a `commit` or `rollback`
   * while it is still held ends a transaction that never started; a `commit` after a
   * statement that carried it is done. Undefined otherwise.
   */
  answer(
    text: unknown,
    values: readonly unknown[] | undefined,
  ): Promise<pg.QueryResult> | undefined {
    // Only the very next query may be that commit (nothing runs between: write-batch.ts).
    const committed = this.committed;
    this.committed = false;
    if (typeof text !== 'string' || (values !== undefined && values.length > 0)) return undefined;
    if (committed && text === 'commit') return answered('COMMIT');
    if (text === 'begin' && !this.held) {
      this.held = true;
      return answered('BEGIN');
    }
    if (this.held && (text === 'commit' || text === 'rollback')) {
      this.held = false;
      return answered(text === 'commit' ? 'COMMIT' : 'ROLLBACK');
    }
    return undefined;
  }

  /** Whether the statement about to be sent carries the held begin (which is then no longer held). */
  carry(canCarry: boolean): boolean {
    if (!this.held || !canCarry) return false;
    this.held = false;
    return true;
  }

  /**
   * The held begin, sent on its own ahead of whatever goes next (none held: nothing). Its
   * promise settles when BEGIN is done; node-postgres keeps the order of what follows anyway.
   */
  flush(): Promise<unknown> {
    if (!this.held) return Promise.resolve();
    this.held = false;
    return this.send('begin');
  }
}

/** Whether SQL text is a transaction's last statement, to carry its COMMIT. */
export const commits = (text: string): boolean => text.endsWith(COMMITS);
