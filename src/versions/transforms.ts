/**
 * Version transforms by object: a module declares, for one dated version and one `object`
 * type, how to turn the latest shape of that object into the shape callers pinned before
 * that version expect. Problem details (error bodies) are objects of type `problem`. `applyTransforms` finds every object of that type wherever it is in
 * a payload (a single response, a list page, nested in another object, inside an error
 * body or a webhook payload) and rewrites them in one batch per transform, so a transform
 * that needs the database makes one query per response, not one per object.
 *
 * Only objects the API itself builds are rewritten: the walk never enters a user's free-form
 * data (`FREE_FORM_KEYS`), where a value tagged `{"object":"event"}` is the user's, not an
 * event, and must come back as it was stored (or a transform would rewrite it or throw on it).
 */

/**
 * Properties that hold a client's free-form JSON (a user's `metadata`: any keys, any values),
 * wherever they appear. Whatever is in them is data, never an API object: not searched.
 */
export const FREE_FORM_KEYS: ReadonlySet<string> = new Set(['metadata']);

/** An API object: anything carrying an `object` tag. */
export type ApiObject = Record<string, unknown> & { object: string };

export interface ObjectTransform<Context> {
  /** The dated version that introduced the change: callers before it get `down`. */
  readonly version: string;
  /** The `object` tag it applies to, e.g. `event`. */
  readonly object: string;
  /** The objects, latest shape in, older shape out (same length, same order). */
  down(objects: ApiObject[], context: Context): Promise<ApiObject[]> | ApiObject[];
}

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The type of an API object: its `object` tag, or `problem` for an RFC 9457 error body. */
function typeOf(value: Record<string, unknown>): string | undefined {
  if (typeof value.object === 'string') return value.object;
  const problem =
    typeof value.type === 'string' &&
    typeof value.status === 'number' &&
    typeof value.code === 'string';
  return problem ? 'problem' : undefined;
}

/**
 * Where the objects tagged `tag` are. A matched object is not searched further: its
 * transform owns everything inside it.
 */
function findSlots(holder: Record<string, unknown>, tag: string): Slot[] {
  const slots: Slot[] = [];
  const visit = (parent: Record<string, unknown> | unknown[], key: string | number) => {
    const value = (parent as Record<string | number, unknown>)[key];
    if (Array.isArray(value)) {
      value.forEach((_, index) => visit(value, index));
    } else if (isPlainObject(value)) {
      if (typeOf(value) === tag) slots.push({ parent, key });
      else {
        for (const child of Object.keys(value)) {
          if (!FREE_FORM_KEYS.has(child)) visit(value, child);
        }
      }
    }
  };
  visit(holder, 'payload');
  return slots;
}

/**
 * Applies `transforms` in the order given (newest version first, as a caller's version is
 * reached by undoing the newest change first) and returns the rewritten payload. The
 * payload is not copied: pass one that is not shared.
 */
export async function applyTransforms<Context>(
  payload: unknown,
  transforms: readonly ObjectTransform<Context>[],
  context: Context,
): Promise<unknown> {
  const holder: Record<string, unknown> = { payload };
  for (const transform of transforms) {
    const slots = findSlots(holder, transform.object);
    if (slots.length === 0) continue;
    const read = (s: Slot) => (s.parent as Record<string | number, unknown>)[s.key] as ApiObject;
    const rewritten = await transform.down(slots.map(read), context);
    if (rewritten.length !== slots.length) {
      throw new Error(`transform ${transform.version}/${transform.object} changed the count`);
    }
    slots.forEach((slot, index) => {
      (slot.parent as Record<string | number, unknown>)[slot.key] = rewritten[index];
    });
  }
  return holder.payload;
}
