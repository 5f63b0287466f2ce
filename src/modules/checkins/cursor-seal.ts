/**
 * Sealing the manifest's paging cursor (manifest-cursor.ts) in a box of the server secret
 * (security/sealed-box.ts: AES-256-GCM, as API keys are) under a label of its own, so the
 * cursor's key opens nothing else and nothing else's opens a cursor. Before, the token was
 * base64url JSON holding the last guest's customer name: personal data in every `Link`
 * header and HTML page's next link, and so in proxies' access logs and browsers' history.
 * Sealed, the token tells nothing of what it holds (its length only roughly: the cursor pads
 * what it seals), and one altered or made up does not open. The departure's id is the
 * associated data: another departure's token does not open either.
 */
import {
  BOX_FORMAT,
  BOX_OVERHEAD,
  openBox,
  sealBox,
  sealingKey,
} from '../../security/sealed-box.js';

/** The first byte of a sealed token; never `[`, the first of an unsealed one (JSON). */
export const SEALED_FORMAT = BOX_FORMAT;
/** A sealed token's bytes besides what it seals. */
export const SEAL_OVERHEAD = BOX_OVERHEAD;

/**
 * The keys tokens are sealed and opened with: the current secret's, and during a rotation
 * of BOOKING_SECRET the previous one's, whose tokens (written by an instance not yet
 * restarted) still open.
 */
export interface CursorKeys {
  readonly current: Buffer;
  readonly previous?: Buffer;
}

const keyOf = (secret: string): Buffer => sealingKey(secret, 'manifest-cursor-encryption');

/** The cursor keys of a server secret (`loadSecret`) and the previous one, if rotating. */
export function cursorKeys(secret: string, previous?: string): CursorKeys {
  return previous === undefined
    ? { current: keyOf(secret) }
    : { current: keyOf(secret), previous: keyOf(previous) };
}

const associated = (eventId: string): Buffer =>
  Buffer.concat([Buffer.of(SEALED_FORMAT), Buffer.from(eventId, 'utf8')]);

/** `plain` sealed for the manifest of `eventId`, as base64url. */
export function seal(keys: CursorKeys, eventId: string, plain: Buffer): string {
  return sealBox(keys.current, associated(eventId), plain).toString('base64url');
}

/**
 * What a sealed token's bytes (base64url decoded) hold, or undefined when they were not
 * sealed for the manifest of `eventId` under these keys, or were changed since: whatever
 * is wrong with them, nothing says what.
 */
export function unseal(keys: CursorKeys, eventId: string, bytes: Buffer): Buffer | undefined {
  const bound = associated(eventId);
  return (
    openBox(keys.current, bound, bytes) ??
    (keys.previous ? openBox(keys.previous, bound, bytes) : undefined)
  );
}
