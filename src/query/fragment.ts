/**
 * The query compiler's SQL fragments: Kysely's `sql` template, `sql.val` and `sql.join`,
 * made as plain objects and turned into Kysely's nodes only when Kysely reads them. A list
 * request whose shape is known (query/shape.ts) is never compiled by Kysely, yet building
 * its fragments as Kysely's nodes froze each one and its arrays and drew a query id for
 * each builder: about 20,000 instructions of an events request, most of its compile stage
 * (docs/performance.md, issue 27, twenty-third pass). The shape is read from these objects
 * directly; everything else (a page query compiled for a new shape, a count, a fragment
 * written into a repository's own `sql`) gets the same SQL through `toOperationNode`.
 */
import { sql, type Expression, type OperationNode } from 'kysely';

/** A value bound as one parameter, whatever it is (an array too), as `sql.val` binds it. */
export class Bound {
  constructor(readonly value: unknown) {}
}

/**
 * `strings` with `parts` between them, as a template literal holds them: a part is a
 * Fragment, a Bound value, a Kysely expression (a column reference made once), or any other
 * value, bound as Kysely's `sql` template binds it.
 */
export class Fragment<T = unknown> implements Expression<T> {
  #node: OperationNode | undefined;

  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly unknown[],
  ) {}

  /** Kysely's type-level marker for what the expression yields; never read at run time. */
  get expressionType(): T | undefined {
    return undefined;
  }

  toOperationNode(): OperationNode {
    this.#node ??= sql(
      this.strings as unknown as TemplateStringsArray,
      ...this.parts.map((part) => (part instanceof Bound ? sql.val(part.value) : part)),
    ).toOperationNode();
    return this.#node;
  }
}

/** The template tag: `fragment\`${column} = ${value}\``. */
export function fragment<T = unknown>(
  strings: TemplateStringsArray,
  ...parts: unknown[]
): Fragment<T> {
  return new Fragment<T>(strings, parts);
}

/** A value as one bound parameter (`sql.val`). */
export const bound = (value: unknown): Bound => new Bound(value);

const COMMA = fragment`, `;

/** `items` with `separator` between them (`sql.join`, whose default is a comma). */
export function joined<T = unknown>(
  items: readonly unknown[],
  separator: Fragment = COMMA,
): Fragment<T> {
  const parts = new Array<unknown>(Math.max(2 * items.length - 1, 0));
  // An index loop, as Kysely's: forEach would skip a hole and the separator before it.
  for (let i = 0; i < items.length; i++) {
    parts[2 * i] = items[i];
    if (i > 0) parts[2 * i - 1] = separator;
  }
  return new Fragment<T>(new Array<string>(parts.length + 1).fill(''), parts);
}
