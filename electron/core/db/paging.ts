/**
 * Pages of the long lists. A request names where the page starts and how long it is; without a
 * limit the whole list is read (the whole-view functions, which share the page queries so both show
 * the same rows).
 */
export interface PageRequest {
  readonly offset?: number;
  readonly limit?: number;
}

export function pageOf(request: PageRequest): { offset: number; limit: number | undefined } {
  const offset = Math.max(0, Math.trunc(request.offset ?? 0));
  const limit = request.limit === undefined ? undefined : Math.max(0, Math.trunc(request.limit));
  return { offset, limit };
}

/**
 * Where the next page starts, or null when this one reached the end (or the whole list was read).
 */
export function nextOffset(
  offset: number,
  count: number,
  limit: number | undefined,
  total: number,
): number | null {
  return limit !== undefined && offset + count < total ? offset + count : null;
}
