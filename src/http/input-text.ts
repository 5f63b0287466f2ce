/**
 * Input that no handler should ever see, refused once for every route before anything else
 * reads it: text PostgreSQL cannot store (a NUL character, a lone UTF-16 surrogate), JSON
 * nested deeper than any of our objects, and query strings with malformed percent-encoding.
 * One pass over the parsed body, query and path parameters (iterative, so depth itself
 * cannot overflow the stack), so no field of any route can be forgotten.
 */
import type { FastifyRequest } from 'fastify';
import { DomainError, type FieldError } from '../domain/errors.js';
import { QueryError } from '../query/errors.js';

/** Deeper than any object of the API (metadata included): refused before it is measured. */
export const MAX_JSON_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it has a lone surrogate)';
  return undefined;
}

const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

/** The first problem in a parsed value: a bad text (key or value), or too deep a nesting. */
export function findInputProblem(value: unknown): { name: string; detail: string } | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const detail = textProblem(current);
      if (detail) return { name: path, detail };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      return { name: path, detail: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    for (const [key, child] of Object.entries(current)) {
      const keyDetail = textProblem(key);
      if (keyDetail)
        return {
          name: join(path, key.replace(/[^\x20-\x7e]/g, '?')),
          detail: `its name ${keyDetail}`,
        };
      stack.push({ value: child, path: join(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * onRequest: a query string whose percent-encoding is malformed (`%ZZ`, a cut-off `%E0%A4%A`,
 * bytes that are not UTF-8) is refused rather than read as literal text.
 */
export async function refuseMalformedQuery(request: FastifyRequest): Promise<void> {
  const at = request.url.indexOf('?');
  if (at < 0) return;
  for (const part of request.url.slice(at + 1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      const name = part.split('=')[0] ?? '';
      let shown = name;
      try {
        shown = decodeURIComponent(name);
      } catch {
        // the name itself is malformed: show it as sent
      }
      throw new QueryError(
        'invalid_parameter',
        shown.slice(0, 60),
        'Malformed percent-encoding: every % must start a valid UTF-8 escape (%XX).',
      );
    }
  }
}

/** preValidation: the body, query and path parameters, checked before any other reader. */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  const parts: [FieldError['in'], unknown][] = [
    ['body', request.body],
    ['query', request.query],
    ['path', request.params],
  ];
  for (const [where, value] of parts) {
    const problem = findInputProblem(value);
    if (!problem) continue;
    const name = problem.name === '' ? where : problem.name;
    throw new DomainError('validation_failed', `${name} ${problem.detail}`, {
      errors: [{ in: where, name, detail: problem.detail }],
    });
  }
}
