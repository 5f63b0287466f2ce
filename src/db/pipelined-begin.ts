/**
 * A transaction's BEGIN sent in the same message as its first statement. Kysely opens a
 * transaction with a `begin` of its own, a round trip in which nothing happens: a booking
 * paid five (its read, begin, seats, writes, commit), and each write to PostgreSQL's socket
 * costs the service and the server a wake-up, the largest single slice of a booking's CPU
 * (docs/performance.md, issue 27, ninth pass). So on a real server `begin` is held, and the
 * statement after it carries it: BEGIN's Parse, Bind and Execute go out ahead of the
 * statement's, one Sync for both (the extended protocol's pipelining; a transaction opened by
 * an explicit BEGIN outlives the Sync, as in libpq's pipeline mode). A transaction that ends
 * before any statement sends nothing at all.
 *
 * The held begin is sent on its own first, as before, ahead of what cannot carry it: a
 * statement without parameters (node-postgres sends it in the simple protocol, whose text may
 * hold several statements, as a migration's does), a named statement (node-postgres records
 * a name as parsed on the first ParseComplete of the message, which would be BEGIN's), and
 * anything that is not a plain query (a cursor, a call with its own callback).
 */
import pg from 'pg';

/** What node-postgres's Query and Connection do and their typings leave out or misstate. */
interface QueryInternals {
  prepare(connection: pg.Connection): void;
  handleCommandComplete(message: unknown, connection: pg.Connection): void;
}
interface Messages {
  parse(query: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
}
const base = pg.Query.prototype as unknown as QueryInternals;

/** A statement, BEGIN ahead of it in its message; answers as the statement alone would. */
export class BeginningQuery extends pg.Query {
  /** BEGIN's CommandComplete, the first of the message, is not the statement's. */
  private begun = false;

  requiresPreparation(): boolean {
    return true;
  }

  prepare(connection: pg.Connection): void {
    // Buffered with the statement's messages: node-postgres corks the socket around prepare.
    const messages = connection as unknown as Messages;
    messages.parse({ text: 'begin' });
    messages.bind({});
    messages.execute({});
    base.prepare.call(this, connection);
  }

  handleCommandComplete(message: unknown, connection: pg.Connection): void {
    if (!this.begun) {
      this.begun = true;
      return;
    }
    base.handleCommandComplete.call(this, message, connection);
  }
}

const answered = (command: string) =>
  Promise.resolve({ command, rowCount: null, oid: 0, rows: [], fields: [] } as pg.QueryResult);

/** A client's held begin: whether one is held, and what to do with the statements after it. */
export class HeldBegin {
  /** Whether a `begin` was answered and not yet sent. */
  held = false;

  /** `send` runs SQL text on the client now, in node-postgres's queue order. */
  constructor(private readonly send: (text: string) => Promise<unknown>) {}

  /**
   * The answer to `text` when it is sent nowhere: `begin` is held; a `commit` or `rollback`
   * while it is still held ends a transaction that never started. Undefined otherwise.
   */
  answer(
    text: unknown,
    values: readonly unknown[] | undefined,
  ): Promise<pg.QueryResult> | undefined {
    if (typeof text !== 'string' || (values !== undefined && values.length > 0)) return undefined;
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
