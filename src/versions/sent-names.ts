/**
 * Names a request rewrite changed (types.ts), so that answers about the request name what the
 * client sent: before v2017-09-28 a booking's `arrivalTime` at the top of the body becomes
 * `items.0.arrivalTime`, and an error or `X-Ignored-Fields` must say `arrivalTime` again;
 * before v2018-02-15 `arrival=a,b` becomes `items.arrival[range]`, and a query error must say
 * `arrival`. Each rewrite records what it renamed, once it has rewritten the request whole
 * (a rewrite that refuses the request records nothing); the version's `problem` transform
 * (`problemNamesAsSent`) and lenient bodies read the record.
 */
import type { ApiObject } from './transforms.js';
import type { VersionContext } from './types.js';

/** The parts of a request whose names a rewrite may change. */
export type NamedPart = 'body' | 'query';

export class SentNames {
  readonly #renamed: Record<NamedPart, Map<string, string>> = {
    body: new Map(),
    query: new Map(),
  };

  /**
   * `name` in the rewritten request was sent as `sent`. In a body, so are the names under it
   * (`items.0.demographics` sent as `demographics`: `items.0.demographics.1.quantity` was
   * `demographics.1.quantity`); a query parameter is renamed alone.
   */
  rename(part: NamedPart, name: string, sent: string): void {
    if (name !== sent) this.#renamed[part].set(name, sent);
  }

  /** Did a rewrite rename anything in `part`? */
  renamed(part: NamedPart): boolean {
    return this.#renamed[part].size > 0;
  }

  /** A name of the rewritten request as the client sent it (as it is when nothing renamed it). */
  asSent(part: NamedPart, name: string): string {
    const renamed = this.#renamed[part];
    if (renamed.size === 0) return name;
    // The longest renamed name that `name` is, or (in a body) is under.
    let head = name;
    let tail = '';
    for (;;) {
      const sent = renamed.get(head);
      if (sent !== undefined) return sent + tail;
      const dot = part === 'body' ? head.lastIndexOf('.') : -1;
      if (dot < 0) return name;
      tail = head.slice(dot) + tail;
      head = head.slice(0, dot);
    }
  }
}

interface FieldError {
  in: string;
  name: string;
  detail: string;
}

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FieldError).in === 'string' &&
  typeof (value as FieldError).name === 'string' &&
  typeof (value as FieldError).detail === 'string';

/**
 * How a problem's `detail` is made from its `errors`: schema validation writes `name detail`,
 * domain and query errors `name: detail`, several joined with `; `.
 */
const RENDERINGS = [
  (errors: FieldError[]) => errors.map((e) => `${e.name} ${e.detail}`).join('; '),
  (errors: FieldError[]) => errors.map((e) => `${e.name}: ${e.detail}`).join('; '),
];

function withNamesAsSent(problem: ApiObject, part: NamedPart, names: SentNames): ApiObject {
  const before = problem.errors;
  if (!Array.isArray(before) || !before.every(isFieldError)) return problem;
  const errors = before.map((e) =>
    e.in === part ? { ...e, name: names.asSent(part, e.name) } : e,
  );
  if (errors.every((e, i) => e.name === before[i]!.name)) return problem;
  // The detail says the same in words: rewritten when it is one of the errors' renderings.
  const rendering = RENDERINGS.find((render) => render(before) === problem.detail);
  return { ...problem, errors, ...(rendering ? { detail: rendering(errors) } : {}) };
}

/**
 * The `problem` transform of a version whose rewrite renames names in `part`: the problem's
 * `errors` (and the `detail` made of them) name what the client sent. Problems the request's
 * rewrites did not touch (any webhook's, a request in the current form) pass as they are.
 */
export function problemNamesAsSent(part: NamedPart) {
  return (problems: ApiObject[], context: VersionContext): ApiObject[] => {
    const names = context.sentNames;
    if (!names?.renamed(part)) return problems;
    return problems.map((problem) => withNamesAsSent(problem, part, names));
  };
}
