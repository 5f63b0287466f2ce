/**
 * Idempotency-Key for POSTs (DESIGN.md section 4), stored in the database so it holds
 * across instances. The same key from the same account within 24 h replays the first
 * response (errors included); the same key with a different request is 422; a retry while
 * the first is still running is 409. The response of a successful write is stored inside
 * that write's own transaction, so a booking and its replay record commit together.
 */
import { createHmac } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import type { Db } from '../../db/database.js';
import { isCheckViolation } from '../../db/errors.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { DomainError } from '../../domain/errors.js';
import { problemOf } from '../../http/problems.js';
import { idempotencyRepository } from './idempotency.repository.js';

// canonicalize is CommonJS; under NodeNext its default export arrives as the function itself.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

const KEY = /^[\x21-\x7e]{1,255}$/;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** A request still "running" this long after it started belongs to a process that died. */
const STALE_MS = 60_000;

export interface Outcome {
  status: number;
  body: unknown;
  /** What to store for replays when it is not `body` itself (a secret left out). */
  stored?: unknown;
}

export interface IdempotentOutcome extends Outcome {
  /** True when this is the stored answer to an earlier request. */
  replayed: boolean;
}

/** Stores the outcome inside the caller's transaction; a no-op without a key. */
export type Recorder = (tx: Tx, outcome: Outcome) => Promise<void>;

export interface IdempotentRequest {
  /** Whose key it is: the account's id, or `address:<ip>` for sign-up. */
  scope: string;
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/**
 * This request ran so long that a retry took its key over (STALE_MS), and its work was
 * rolled back: the retry's answer is the one kept, which a retry of this one replays.
 */
const takenOver = () =>
  new DomainError(
    'idempotency_in_progress',
    'A retry with this Idempotency-Key took this request over, which was rolled back; retry to get its answer.',
  );

/**
 * Refusals that say "not now" rather than answer the request: a retry with the same key
 * after Retry-After must be tried afresh, not replayed the old 429 for a day.
 */
const TRANSIENT = new Set(['rate_limited', 'idempotency_in_progress']);

export function idempotencyService({ db, fingerprintKey }: { db: Db; fingerprintKey: Buffer }) {
  const repo = idempotencyRepository(db);

  /** The key claimed (the claim's stamp), or the stored answer to replay. */
  async function claim(
    scope: string,
    key: string,
    fingerprint: string,
  ): Promise<Date | IdempotentOutcome> {
    const claimed = await repo.claim(scope, key, fingerprint);
    if (claimed) return claimed;
    const existing = await repo.find(scope, key);
    // Only a key that looks about a day old by this clock (an hour's leeway for a clock
    // that differs from the database's, which decides) is asked to expire: a replay costs
    // no third statement.
    const mayExpire = existing && Date.now() - existing.created_at.getTime() > DAY_MS - HOUR_MS;
    if (!existing || (mayExpire && (await repo.expire(scope, key, DAY_MS)))) {
      // Gone or expired meanwhile: claim afresh (a concurrent claimant may win; then replay).
      return (await repo.claim(scope, key, fingerprint)) ?? claim(scope, key, fingerprint);
    }
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request.',
      );
    }
    if (existing.status === 'done') {
      return {
        status: existing.response_status ?? 200,
        body: existing.response_body,
        replayed: true,
      };
    }
    // Taken over, the first request's own writes of the key fail (repo.complete), so only
    // one of the two can book.
    const takenOver = await repo.takeOver(scope, key, STALE_MS);
    if (takenOver) return takenOver;
    throw new DomainError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }

  return {
    /**
     * Runs `perform` once per key. `perform` receives a recorder to call inside its
     * transaction with the response it is about to return.
     */
    async run(
      request: IdempotentRequest,
      perform: (record: Recorder) => Promise<Outcome>,
    ): Promise<IdempotentOutcome> {
      const { scope, key } = request;
      if (key === undefined) return { ...(await perform(async () => undefined)), replayed: false };
      if (!KEY.test(key)) {
        throw new DomainError(
          'invalid_idempotency_key',
          'Idempotency-Key must be 1-255 visible ASCII characters.',
          {
            errors: [
              {
                in: 'header',
                name: 'Idempotency-Key',
                detail: 'must be 1-255 visible ASCII characters',
              },
            ],
          },
        );
      }
      // Bodies compare canonically (RFC 8785): the same JSON with its keys in another order,
      // or its numbers written another way, is the same request. Keyed: a body may hold a
      // password (security/secret.ts, configuredFingerprintKey).
      const fingerprint = createHmac('sha256', fingerprintKey)
        .update(`${request.method} ${request.path}\n${canonicalize(request.body ?? null) ?? ''}`)
        .digest('base64url');
      const claimed = await claim(scope, key, fingerprint);
      if (!(claimed instanceof Date)) return claimed;
      try {
        // The answer is stored in the write's own transaction when `perform` records it;
        // only work that records nothing has it stored here, after the fact.
        let recorded = false;
        const outcome = await perform(async (trx, result) => {
          await idempotencyRepository(trx).complete(
            scope,
            key,
            claimed,
            result.status,
            result.body,
          );
          recorded = true;
        });
        if (!recorded)
          await repo.complete(scope, key, claimed, outcome.status, outcome.stored ?? outcome.body);
        return { status: outcome.status, body: outcome.body, replayed: false };
      } catch (error) {
        if (isCheckViolation(error, 'idempotency_keys_status_check')) throw takenOver();
        // Best effort, and never in place of the request's own error: when the database is
        // what failed, these fail too, and the key, still "running", is taken over by a
        // retry once it is STALE_MS old.
        const settle =
          error instanceof DomainError && error.status < 500 && !TRANSIENT.has(error.code)
            ? // A refusal is an answer too: the retry gets the same one.
              repo.complete(scope, key, claimed, error.status, problemOf(error))
            : repo.forget(scope, key, claimed);
        await settle.catch(() => undefined);
        throw error;
      }
    },

    /** Deletes up to `limit` keys past their 24 h (the retention sweep, src/retention.ts). */
    prune: (limit: number) => repo.prune(DAY_MS, limit),
  };
}

export type IdempotencyService = ReturnType<typeof idempotencyService>;

/**
 * A create in one transaction with its Idempotency-Key record: the object and the answer a
 * retry replays commit together, or neither does.
 */
export function recordedCreate<T>(
  db: Db,
  record: Recorder | undefined,
  work: (tx: Tx) => Promise<T>,
  status = 201,
): Promise<T> {
  return inTransaction(db, async (tx) => {
    const body = await work(tx);
    await record?.(tx, { status, body });
    return body;
  });
}
