/**
 * Errors of the query language. Each names the query parameter at fault and says what
 * would be valid; the HTTP layer renders them as 400 problem+json with the same code.
 */
export const queryErrorCodes = {
  invalid_parameter: 'A query parameter is malformed',
  repeated_parameter: 'A query parameter is given more than once',
  unknown_field: 'No such filterable field',
  unknown_operator: 'No such operator',
  operator_not_allowed: "The operator does not apply to the field's type",
  invalid_value: 'A filter value is malformed',
  wrong_value_count: 'The operator takes a different number of values',
  invalid_paging: 'limit or skip is out of range',
  invalid_sort: 'The sort field is not sortable',
} as const;

export type QueryErrorCode = keyof typeof queryErrorCodes;

export class QueryError extends Error {
  override name = 'QueryError';
  constructor(
    readonly code: QueryErrorCode,
    /** The query parameter at fault, as the client wrote it (e.g. `items.arrival[range]`). */
    readonly parameter: string,
    /** What is wrong and what would be valid. */
    readonly detail: string,
  ) {
    super(`${parameter}: ${detail}`);
  }
}
