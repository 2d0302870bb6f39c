/**
 * After a sync commit, off the sync's critical path (sync/service.ts): the site's memoised views
 * are computed so they are ready before the renderer asks (the long lists are read in pages
 * straight from their indexes, no memo to fill; what is memoised is small: the billing and inbox
 * summaries and the entitlements), then the short search terms of the rows the commit wrote are
 * indexed (search.ts) a step at a time. Until a row is indexed, searches scan it:
 * slower, never wrong.
 */
import { getEntitlements } from './entitlements';
import { getNotificationsSummary } from './notifications';
import { getBillingSummary } from './payments';
import type { ReadableDB } from './handles';

/**
 * Rows of the short-term search index written per step (~30 ms each on 2 cores): the event loop
 * stays free.
 */
const GRAMS_STEP = 4000;

/** The memoised views the screens open with, computed on the connection they are read from. */
export function warmSummaries(db: ReadableDB, siteId: string, now: Date): void {
  getBillingSummary(db, siteId, now);
  getNotificationsSummary(db, siteId);
  getEntitlements(db, siteId, now);
}

/**
 * The short-term search index through the writer (worker-contract `search:index-step`), one step
 * per call: between steps the writer takes other calls (a change the student made), and the main
 * thread only waits for answers. Returns the rows indexed.
 */
export async function indexShortTermsInSteps(
  step: (maxRows: number) => Promise<number>,
  stopped: () => boolean,
): Promise<number> {
  let total = 0;
  for (;;) {
    if (stopped()) return total;
    const indexed = await step(GRAMS_STEP);
    total += indexed;
    if (indexed < GRAMS_STEP) return total;
  }
}
