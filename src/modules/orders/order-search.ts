/**
 * `search=` on orders: one term matched against the booking codes (exactly, case-folded for
 * the short code), the customer's name and email (substring, Unicode case fold, the trigram
 * indexes); exact code matches rank first. It is not a query-language filter (it spans
 * several fields and ranks), so the orders service takes it out of the query and the
 * repository adds its condition and rank to the compiled list (orders.repository.ts,
 * docs/booking.md).
 */
import { QueryError } from '../../query/errors.js';

const MAX_TERM = 200;

/** The search term of `search=` (one, 1-200 characters after trimming). */
export function searchTerm(value: unknown): string {
  if (Array.isArray(value))
    throw new QueryError('repeated_parameter', 'search', 'Give one search term.');
  const term = typeof value === 'string' ? value.trim() : '';
  if (term.length === 0 || term.length > MAX_TERM)
    throw new QueryError('invalid_parameter', 'search', `Give a term of 1-${MAX_TERM} characters.`);
  return term;
}

/**
 * The list query with `search` taken out. Ranked results page by `skip`: the default order
 * (newest first, which pages by id) becomes `-createdAt` so the rank can lead the order.
 */
export function withoutSearch(query: Record<string, unknown>): Record<string, unknown> {
  const { search: _search, ...filters } = query;
  if (filters.sort === undefined || filters.sort === '-id') filters.sort = '-createdAt';
  return filters;
}
