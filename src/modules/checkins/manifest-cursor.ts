/**
 * The manifest's paging cursor (`?startingAfter=`, docs/operations-day.md): an opaque token
 * holding the last listed guest's place in the manifest's order as that page read it, its
 * customer's name, booking, item's and seat's places and id, and the departure's id, as
 * base64url JSON. The next page goes on after that place, not after the guest's place now:
 * before, the cursor was the guest's id and the next page looked up its order's name again,
 * so a customer renaming its order between two pages moved the cursor past every guest
 * between the two names (400 of 600 listed, the last page saying it was the last).
 *
 * A token is checked for shape, not signed: the page it starts is read among the guests of
 * the departure in the path (whose manifest the caller may read) whatever it holds, so a
 * made-up one can only skip that caller's own guests, never show another's. It carries the
 * customer's name, which the caller reads on the page anyway; logs redact it as a long
 * random-looking run (http/secret-shapes.ts). A guest's id (what `paging.next` named
 * before) is still read, as that guest's place now.
 */
import { QueryError } from '../../query/errors.js';

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

const ID = /^[0-9a-f]{24}$/;
const INT_MAX = 2_147_483_647;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The token of a page that ends with `key`, or its guest's id when the token would be longer
 * than a request may send (a name of thousands of characters; its order's renaming then
 * moves the cursor, as before).
 */
export function cursorOf(eventId: string, key: ManifestKey): string {
  const { customerName, orderId, itemPosition, position, id } = key;
  const json = JSON.stringify([eventId, customerName, orderId, itemPosition, position, id]);
  const token = Buffer.from(json, 'utf8').toString('base64url');
  return token.length <= CURSOR_MAX ? token : id;
}

const refused = (detail: string): QueryError =>
  new QueryError('invalid_parameter', 'startingAfter', detail);

/**
 * What `startingAfter` names: a guest's id (as before), or the place a token holds. A token
 * that is not one this departure's manifest wrote is `400 invalid_parameter`, whatever it
 * holds: never a database error nor another departure's guests.
 */
export function readCursor(
  eventId: string,
  text: string,
): { guest: string } | { key: ManifestKey } {
  if (ID.test(text)) return { guest: text };
  const value = decoded(text);
  if (!Array.isArray(value) || value.length !== 6) throw refused('is not a manifest cursor.');
  const [event, customerName, orderId, itemPosition, position, id] = value as unknown[];
  if (event !== eventId)
    throw refused("is another departure's cursor: send the paging.next of this manifest.");
  if (
    !isName(customerName) ||
    !isId(orderId) ||
    !isId(id) ||
    !isPlace(itemPosition) ||
    !isPlace(position)
  )
    throw refused('is not a manifest cursor.');
  return { key: { customerName, orderId, itemPosition, position, id } };
}

/** The JSON a token holds: canonical base64url of UTF-8, or refused. */
function decoded(text: string): unknown {
  const bytes = Buffer.from(text, 'base64url');
  // Buffer skips what is not base64url: only a token written back exactly is one.
  if (bytes.length === 0 || bytes.toString('base64url') !== text)
    throw refused('is not a manifest cursor: send paging.next as it is.');
  try {
    return JSON.parse(utf8.decode(bytes)) as unknown;
  } catch {
    throw refused('is not a manifest cursor: send paging.next as it is.');
  }
}

const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
/** A position PostgreSQL's integer holds. */
const isPlace = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INT_MAX;
/** A NUL, or half of a surrogate pair alone: what no text in PostgreSQL holds. */
const NOT_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isName = (value: unknown): value is string =>
  typeof value === 'string' && !NOT_TEXT.test(value);
