/**
 * The case fold of the text operators (startsWith, endsWith, contains, doesNotContain), in
 * one place: Unicode default lowercasing, the same in the database and in the reference
 * evaluator. In SQL it is `lower()` under the ICU root collation (`und-x-icu`), which both
 * PostgreSQL and the embedded database have; `ILIKE` on our byte-ordered (`collate "C"`)
 * columns would fold ASCII only, so "ZOË" would miss "Zoë". In JavaScript it is
 * `toLowerCase()`, the same Unicode mapping (Final_Sigma and İ included). The trigram
 * indexes are built on exactly the SQL expression, so they serve these filters.
 */
import type { Expression } from 'kysely';
import { fragment, type Fragment } from './fragment.js';

/** The folded form of a value, in the evaluator and for patterns sent to the database. */
export const fold = (text: string): string => text.toLowerCase();

/** The folded form of a column, in SQL (the expression the trigram indexes are built on). */
export const foldSql = (column: Expression<unknown>): Fragment<string> =>
  fragment<string>`lower(${column} collate "und-x-icu")`;
