/**
 * A look at a JSON text before it is parsed, so that a body no route could accept costs a
 * scan of its first bytes instead of a parse of all of them (docs/security.md, "Request
 * bodies"). JSON.parse of a 1 MiB body of a million small values takes 5-20 ms of the
 * event loop, and each key name it has not seen before about 0.6 µs; counting values, keys
 * and depth up to the route's budget stops after a few kilobytes, and costs about 2 ms per
 * MiB when it does not stop. A pure function; the text is not validated here (JSON.parse
 * still answers for malformed JSON).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const COLON = 0x3a;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

export interface JsonCounts {
  /** Values: objects, arrays and scalars. */
  values: number;
  /** Object members (keys). */
  keys: number;
  /** The deepest nesting of arrays and objects (`[[1]]` is 2). */
  depth: number;
}

/**
 * How many values and keys `text` holds and how deep it nests, counted until one of them
 * passes its limit (the scan stops there, so a count past its limit means "too many").
 * Outside strings, every comma, `[` and `{` counts a value, plus one for the whole; every
 * colon counts a key. Exact for a body without empty arrays or objects, and never less than
 * what JSON.parse would make (an empty `[]` or `{}` counts twice).
 */
export function countJson(text: string, limits: JsonCounts): JsonCounts {
  let values = 1;
  let keys = 0;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  const length = text.length;
  // One plain loop over the characters: skipping strings with indexOf was faster on long
  // plain text, but slower and erratic on many short or escaped strings.
  for (let at = 0; at < length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === BACKSLASH) at++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === COMMA) {
      if (++values > limits.values) break;
    } else if (char === COLON) {
      if (++keys > limits.keys) break;
    } else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      if (++values > limits.values) break;
      if (++depth > deepest && (deepest = depth) > limits.depth) break;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) {
      depth--;
    }
  }
  return { values, keys, depth: deepest };
}
