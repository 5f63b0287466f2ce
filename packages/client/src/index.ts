/**
 * @booking/client: the booking API from TypeScript, typed end to end. The types are
 * generated from the service's OpenAPI document (schema.ts, by openapi-typescript); the
 * calls are openapi-fetch's (`client.GET('/api/orders/{id}', {params: {path: {id}}})`),
 * with the API key and the pinned API version sent on every request. On top: `unwrap`
 * turns a problem+json answer into a `BookingApiError` carrying its `code`, `paginate`
 * follows `paging.next` through a whole list, and `idempotencyKey` makes a retry-safe key.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
/** The API's named objects: `Schemas['Order']`, `Schemas['Experience']` ... */
export type Schemas = components['schemas'];

export interface BookingClientOptions {
  /** Where the service answers, e.g. `http://localhost:3000` (paths start with /api). */
  baseUrl: string;
  /** The caller's API key (`X-API-KEY`); without one, requests are anonymous. */
  apiKey?: string;
  /**
   * The API version (`X-API-VERSION`, `YYYY-MM-DD`) every request is answered in. Pin the
   * version the client was generated with (`GENERATED_FOR_VERSION`) so that a server upgrade
   * never changes the shapes the types describe.
   */
  apiVersion?: string;
  /** A fetch implementation (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

export type BookingClient = Client<paths>;

/** The version of the API the types were generated from. */
export const GENERATED_FOR_VERSION = '2026-11-25';

export function createBookingClient(options: BookingClientOptions): BookingClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use({
    onRequest({ request }) {
      if (options.apiKey) request.headers.set('X-API-KEY', options.apiKey);
      if (options.apiVersion) request.headers.set('X-API-VERSION', options.apiVersion);
      return request;
    },
  });
  return client;
}

/** Any problem+json answer (DESIGN.md section 4): one named schema per `code`. */
export type Problem = Schemas[Extract<keyof Schemas, `${string}Problem`>];
/** Every error code the API documents. */
export type ProblemCode = Problem['code'];

export class BookingApiError extends Error {
  override name = 'BookingApiError';
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The problem's stable `code` (`capacity_exceeded`, `not_found` ...): branch on this. */
    readonly code: ProblemCode,
    /** The whole problem body: `errors` name the fields at fault, `requestId` the request. */
    readonly problem: Partial<Problem> & Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${String(problem.detail ?? problem.title ?? '')}`);
  }
}

/**
 * The data of an openapi-fetch call, or a `BookingApiError` when the service answered with
 * an error (its problem body, or the bare status when the body was not one).
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const problem =
    error && typeof error === 'object' ? (error as Record<string, unknown>) : { title: error };
  const code = (typeof problem.code === 'string' ? problem.code : 'internal_error') as ProblemCode;
  throw new BookingApiError(response.status, code, problem);
}

/** The list endpoints (those whose GET answers `{data, paging}`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { 'application/json': { paging: unknown } } } } };
  }
    ? P
    : never;
}[keyof paths];

type ListItem<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: (infer T)[] } } } } };
}
  ? T
  : never;

type Page<P extends ListPath> = { data: ListItem<P>[]; paging: { next: string | null } };

/** Query-language values: filters are `field` or `field[operator]` keys (docs/query-language.md). */
export type ListQuery = Record<string, string | number | boolean>;

/**
 * Every object of a list, page after page: follows `paging.next` (keyset paging, so rows
 * added meanwhile are neither skipped nor repeated) until there is none. `query` holds the
 * filters, `sort`, `limit` and `expand`; `path` parameters fill `{id}`-style segments.
 */
export async function* paginate<P extends ListPath>(
  client: BookingClient,
  path: P,
  query: ListQuery = {},
  pathParams: Record<string, string> = {},
): AsyncGenerator<ListItem<P>> {
  let next: ListQuery | undefined = query;
  while (next) {
    // The path is one of the lists, checked by ListPath; openapi-fetch cannot narrow a
    // generic path, hence the untyped call and the typed page.
    const get = client.GET as (
      path: string,
      init: object,
    ) => Promise<{ data?: Page<P>; error?: unknown; response: Response }>;
    const page: Page<P> = await unwrap(get(path, { params: { path: pathParams, query: next } }));
    yield* page.data;
    next = page.paging.next
      ? Object.fromEntries(new URL(page.paging.next, 'http://next.invalid').searchParams)
      : undefined;
  }
}

/** A fresh `Idempotency-Key`: send the same one again to retry a create safely. */
export const idempotencyKey = (): string => crypto.randomUUID();
