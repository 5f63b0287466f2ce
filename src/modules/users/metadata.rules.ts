/**
 * The rules of user metadata, as pure functions: which keys and values are valid, and the
 * limits a merged metadata object must stay within.
 */
import type { FieldError } from '../../domain/errors.js';

export const METADATA_LIMITS = {
  maxKeyLength: 255,
  maxKeys: 100,
  /** Bytes of the whole metadata object serialized as JSON. */
  maxBytes: 16 * 1024,
} as const;

/** Problems with the keys and values of a metadata write, one entry per bad key. */
export function metadataPairErrors(pairs: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(pairs)) {
    const name = key === '' ? '(empty key)' : key;
    if (key.trim() === '') errors.push({ in: 'body', name, detail: 'a key must not be empty' });
    else if (key.includes('.'))
      errors.push({ in: 'body', name, detail: "a key must not contain '.'; use '/' instead" });
    else if (key.length > METADATA_LIMITS.maxKeyLength)
      errors.push({
        in: 'body',
        name: key.slice(0, 40) + '…',
        detail: `a key has at most ${METADATA_LIMITS.maxKeyLength} characters`,
      });
    if (Array.isArray(value))
      errors.push({ in: 'body', name, detail: 'a value is a JSON scalar or object, not an array' });
    else if (holdsNonFinite(value))
      errors.push({
        in: 'body',
        name,
        detail: 'a number must be finite: JSON numbers past about 1.8e308 (1e400) cannot be kept',
      });
  }
  return errors;
}

/**
 * Whether a parsed value holds a number JSON.parse made Infinity of (`1e400`): stored, it
 * became `null` with a 200, the value lost without a word. The body's depth is bounded before
 * it is parsed (http/body-bounds.ts), so the walk is too.
 */
function holdsNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsNonFinite);
}

/** Why the merged metadata would be too big, or undefined if it fits. */
export function metadataLimitError(merged: Record<string, unknown>): string | undefined {
  const keys = Object.keys(merged).length;
  if (keys > METADATA_LIMITS.maxKeys) {
    return `Metadata would have ${keys} keys; the limit is ${METADATA_LIMITS.maxKeys}.`;
  }
  const bytes = Buffer.byteLength(JSON.stringify(merged), 'utf8');
  if (bytes > METADATA_LIMITS.maxBytes) {
    return `Metadata would take ${bytes} bytes as JSON; the limit is ${METADATA_LIMITS.maxBytes}.`;
  }
  return undefined;
}
