/**
 * Where two JSON values first differ, for the floor's bodies checked against ours: the path
 * of the first difference (`$.data[3].items[0].arrivalDatetime`) and both values there, or
 * undefined when the values are the same. Objects are compared by their keys, not their key
 * order (PostgreSQL and our serializer order keys differently, and that is no difference).
 */
export interface JsonDifference {
  path: string;
  ours: unknown;
  theirs: unknown;
}

const kind = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const step = (path: string, key: string | number) =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

export function firstDifference(
  ours: unknown,
  theirs: unknown,
  path = '$',
): JsonDifference | undefined {
  if (kind(ours) !== kind(theirs)) return { path, ours, theirs };
  if (Array.isArray(ours)) {
    const other = theirs as unknown[];
    for (let i = 0; i < Math.max(ours.length, other.length); i++) {
      if (i >= ours.length || i >= other.length)
        return { path: step(path, i), ours: ours[i], theirs: other[i] };
      const found = firstDifference(ours[i], other[i], step(path, i));
      if (found) return found;
    }
    return undefined;
  }
  if (kind(ours) === 'object') {
    const a = ours as Record<string, unknown>;
    const b = theirs as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      if (!(key in a) || !(key in b))
        return { path: step(path, key), ours: a[key], theirs: b[key] };
      const found = firstDifference(a[key], b[key], step(path, key));
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(ours, theirs) ? undefined : { path, ours, theirs };
}

/** One line naming the difference, for an error message. */
export function describeDifference(difference: JsonDifference): string {
  const show = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value));
  return `${difference.path}: ours ${show(difference.ours)}, floor ${show(difference.theirs)}`;
}
