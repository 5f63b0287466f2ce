/**
 * The bytes of JSON one list page may carry. A page is `limit` rows (at most 100), but what
 * one row weighs is up to its writer: an order of 20 items, 1,000 seats (a guest each) and
 * 20 notes of 2,000 characters is about 190 KB, so a seller's page of 100 such orders was
 * 19 MB, 3.8 s to answer, and eight at once took the server past its heap (128 MB under
 * `npm start`) and down. A page now ends at the row that would take it past PAGE_BYTES (its
 * first row always stays, whatever it weighs), and `paging.next` goes on from there;
 * ordinary pages (100 orders of a few items: about 160 KB) are far from it.
 */
import { sql, type RawBuilder } from 'kysely';

export const PAGE_BYTES = 1024 * 1024;

/**
 * SQL, in a query over a page's rows numbered by `order`: true while the rows before this
 * one carry less than PAGE_BYTES of `text`.
 */
export const withinPageBudget = (text: RawBuilder<unknown>, order: RawBuilder<unknown>) =>
  sql<boolean>`coalesce(sum(octet_length(${text})) over (order by ${order} rows between unbounded preceding and 1 preceding), 0) < ${sql.lit(PAGE_BYTES)}`;
