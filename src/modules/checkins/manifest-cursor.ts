/**
 * The manifest's paging cursor (`?startingAfter=`, docs/operations-day.md): an opaque token
 * holding the last listed guest's place in the manifest's order as that page read it, its
 * customer's name, booking, item's and seat's places and id, sealed for the departure
 * (cursor-seal.ts). The next page goes on after that place, not after the guest's place now:
 * before, the cursor was the guest's id and the next page looked up its order's name again,
 * so a customer renaming its order between two pages moved the cursor past every guest
 * between the two names (400 of 600 listed, the last page saying it was the last).
 *
 * Sealed because the name is personal data and the token travels in URLs (`Link` headers,
 * the HTML page's next link, proxies' access logs, browser history): the version before
 * wrote it as base64url JSON anyone could read. A sealed token that does not open (altered,
 * made up, another departure's) is `400 invalid_parameter`. Still read, as that version
 * wrote them: its unsealed tokens, for this release only (a client in the middle of a
 * manifest during the rolling deploy holds one; made up, one can only skip that caller's
 * own guests, the page being read among the departure's in the path), and a guest's id
 * (what `paging.next` named before the tokens), as that guest's place now.
 */
import { QueryError } from '../../query/errors.js';
import { seal, SEALED_FORMAT, unseal, type CursorKeys } from './cursor-seal.js';

/** A guest's place in the manifest's order (orders' guests.repository.ts `ManifestKey`). */
export interface ManifestKey {
  customerName: string;
  orderId: string;
  itemPosition: number;
  position: number;
  id: string;
}

/**
 * The longest token the route takes (its schema); a page whose last guest's name would make
 * a longer one names that guest's id instead (`cursorOf`).
 */
export const CURSOR_MAX = 8192;
/** What a token seals is padded to a multiple of this many bytes: its length tells little. */
export const PAD_BYTES = 64;

const ID = /^[0-9a-f]{24}$/;
const INT_MAX = 2_147_483_647;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The token of a page that ends with `key`, or its guest's id when the token would be longer
 * than a request may send (a name of thousands of characters; its order's renaming then
 * moves the cursor, as before).
 */
export function cursorOf(keys: CursorKeys, eventId: string, key: ManifestKey): string {
  const { customerName, orderId, itemPosition, position, id } = key;
  const json = Buffer.from(
    JSON.stringify([customerName, orderId, itemPosition, position, id]),
    'utf8',
  );
  // Spaces after JSON are still the same JSON.
  const padding = (PAD_BYTES - (json.length % PAD_BYTES)) % PAD_BYTES;
  const token = seal(keys, eventId, Buffer.concat([json, Buffer.alloc(padding, ' ')]));
  return token.length <= CURSOR_MAX ? token : id;
}

const refused = (detail: string): QueryError =>
  new QueryError('invalid_parameter', 'startingAfter', detail);
const NOT_A_CURSOR = 'is not a cursor of this manifest: send its paging.next as it is.';

/**
 * What `startingAfter` names: a guest's id, or the place a token holds. A token that is not
 * one this departure's manifest wrote is `400 invalid_parameter`, whatever it holds: never a
 * database error nor another departure's guests.
 */
export function readCursor(
  keys: CursorKeys,
  eventId: string,
  text: string,
): { guest: string } | { key: ManifestKey } {
  if (ID.test(text)) return { guest: text };
  const bytes = Buffer.from(text, 'base64url');
  // Buffer skips what is not base64url: only a token written back exactly is one.
  if (bytes.length === 0 || bytes.toString('base64url') !== text) throw refused(NOT_A_CURSOR);
  if (bytes[0] === SEALED_FORMAT) {
    const plain = unseal(keys, eventId, bytes);
    if (!plain) throw refused(NOT_A_CURSOR);
    // Sealed by this service: its shape is checked all the same.
    return { key: placeOf(json(plain)) };
  }
  // Unsealed, as the version before wrote it: the departure's id, then the place. Read for
  // this release only (docs/operations-day.md); the next refuses it as any other text.
  const value = json(bytes);
  if (!Array.isArray(value) || value.length !== 6) throw refused(NOT_A_CURSOR);
  const [event, ...place] = value as unknown[];
  if (event !== eventId)
    throw refused("is another departure's cursor: send the paging.next of this manifest.");
  return { key: placeOf(place) };
}

/** The JSON of a token's bytes (UTF-8), or refused. */
function json(bytes: Buffer): unknown {
  try {
    return JSON.parse(utf8.decode(bytes)) as unknown;
  } catch {
    throw refused(NOT_A_CURSOR);
  }
}

/** The place a token's array holds: name, booking, item's place, seat's place, id. */
function placeOf(value: unknown): ManifestKey {
  if (!Array.isArray(value) || value.length !== 5) throw refused(NOT_A_CURSOR);
  const [customerName, orderId, itemPosition, position, id] = value as unknown[];
  if (
    !isName(customerName) ||
    !isId(orderId) ||
    !isId(id) ||
    !isPlace(itemPosition) ||
    !isPlace(position)
  )
    throw refused(NOT_A_CURSOR);
  return { customerName, orderId, itemPosition, position, id };
}

const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
/** A position PostgreSQL's integer holds. */
const isPlace = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INT_MAX;
/** A NUL, or half of a surrogate pair alone: what no text in PostgreSQL holds. */
const NOT_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isName = (value: unknown): value is string =>
  typeof value === 'string' && !NOT_TEXT.test(value);
