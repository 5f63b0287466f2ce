/**
 * The largest body a request schema of the OpenAPI document allows: every optional field
 * present, every array at its maxItems, every string at its maxLength (or the longest text
 * its pattern or format takes), numbers at their maximum. Used by the route fuzzer and
 * bench/worst-bodies.ts to send each route the most work a valid-looking body can ask for.
 * Details the schema cannot say (an id that exists, a date that is scheduled) may still be
 * refused: the size and shape are what count.
 */
type Schema = Record<string, unknown>;

export interface LargestOptions {
  /** The document's named schemas, for `$ref`s. */
  components: Record<string, Schema>;
  /** An id to put where a 24-hex id goes. */
  id: string;
}

/** Texts a pattern may take, longest first; the first that matches is used. */
const PATTERN_SAMPLES = [
  '2030-06-01T09:00:00.123456789+01:00',
  '2030-06-01T09:00:00Z',
  '2030-06-01',
  '09:00',
  'USD',
  'a'.repeat(40),
];

export function largestBody(schema: Schema, options: LargestOptions): unknown {
  const resolve = (node: Schema): Schema =>
    typeof node.$ref === 'string'
      ? resolve(options.components[node.$ref.split('/').pop()!.replace(/#$/, '')] ?? {})
      : node;
  const longest = (values: unknown[]) =>
    values.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a));

  function text(node: Schema): string {
    const max = typeof node.maxLength === 'number' ? node.maxLength : undefined;
    if (typeof node.pattern === 'string') {
      if (node.pattern.includes('[0-9a-f]{24}')) return options.id;
      const pattern = new RegExp(node.pattern, 'u');
      const fits = PATTERN_SAMPLES.find(
        (sample) => pattern.test(sample) && (max === undefined || sample.length <= max),
      );
      return fits ?? 'a';
    }
    if (node.format === 'date') return '2030-06-01';
    if (node.format === 'date-time') return '2030-06-01T09:00:00.123456789+01:00';
    if (node.format === 'email') return `${'a'.repeat(Math.min(64, (max ?? 80) - 12))}@example.com`;
    if (node.format === 'uri') return `https://example.com/${'p'.repeat((max ?? 120) - 20)}`;
    return 'x'.repeat(max ?? 100);
  }

  function value(input: Schema, depth: number): unknown {
    const node = resolve(input);
    if (depth > 12) return null;
    if (node.const !== undefined) return node.const;
    if (Array.isArray(node.enum)) return longest(node.enum as unknown[]);
    const union = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
    if (union) return longest(union.map((option) => value(option, depth + 1)));
    const types = ([] as string[]).concat((node.type as string | string[] | undefined) ?? []);
    if (types.length > 1) return longest(types.map((type) => value({ ...node, type }, depth)));
    switch (types[0]) {
      case 'null':
        return null;
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        return typeof node.maximum === 'number' ? node.maximum : 1000;
      case 'string':
        return text(node);
      case 'array':
        return array(node, depth);
      case 'object':
        return object(node, depth);
      default:
        // Open values (metadata): a string of a fair size.
        return 'x'.repeat(120);
    }
  }

  function array(node: Schema, depth: number): unknown[] {
    const count = typeof node.maxItems === 'number' ? node.maxItems : 3;
    const items = resolve((node.items as Schema | undefined) ?? {});
    // Distinct integers where items must be unique (days of the week).
    if (node.uniqueItems && (items.type === 'integer' || items.type === 'number')) {
      const min = typeof items.minimum === 'number' ? items.minimum : 0;
      return Array.from({ length: count }, (_, i) => min + i);
    }
    return Array.from({ length: count }, () => value(items, depth + 1));
  }

  function object(node: Schema, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [name, child] of Object.entries((node.properties as Schema | undefined) ?? {}))
      result[name] = value(child as Schema, depth + 1);
    // An open object (metadata): as many members as it may have.
    const extra = node.additionalProperties;
    const member =
      Object.values((node.patternProperties as Record<string, Schema> | undefined) ?? {})[0] ??
      (typeof extra === 'object' ? (extra as Schema) : extra === false ? undefined : {});
    if (member && !node.properties) {
      const count = typeof node.maxProperties === 'number' ? node.maxProperties : 5;
      for (let i = 0; i < count; i++) result[`acme/app/k${i}`] = value(member, depth + 1);
    }
    return result;
  }

  return value(schema, 0);
}
