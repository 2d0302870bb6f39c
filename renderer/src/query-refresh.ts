import type { QueryClient, QueryFilters } from '@tanstack/query-core';

// No DOM and no bridge here: test/renderer runs these in Node against a real QueryClient.

/**
 * The core's data changed: refetch the matching queries, including one whose first read is still on
 * its way. invalidateQueries alone joins a first fetch in flight (a query with no data yet is never
 * restarted), so a view read just before a sync's commit would keep its empty answer once the
 * commit's event had come and gone. Cancelling first reverts those reads; the invalidation then
 * starts them again, after the change.
 */
export async function refreshQueries(
  client: QueryClient,
  filters: QueryFilters = {},
): Promise<void> {
  await client.cancelQueries(filters);
  await client.invalidateQueries(filters);
}

/** Channels whose answers mix every site's data: a change at any site refreshes them. */
const ALL_SITES_CHANNELS: ReadonlySet<unknown> = new Set(['library:all-page', 'plan:get']);

/**
 * Refetches every query whose input is for `siteId`, and those that span every site (see
 * refreshQueries).
 */
export function invalidateSite(client: QueryClient, siteId: string): Promise<void> {
  return refreshQueries(client, {
    predicate: (q) => {
      if (ALL_SITES_CHANNELS.has(q.queryKey[0])) return true;
      const input = q.queryKey[1];
      return (
        typeof input === 'object' &&
        input !== null &&
        (input as { siteId?: unknown }).siteId === siteId
      );
    },
  });
}
