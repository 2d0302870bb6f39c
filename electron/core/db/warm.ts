import type { Database } from 'better-sqlite3';
import { getEntitlements } from './entitlements';
import { getNotificationsSummary } from './notifications';
import { getBillingSummary } from './payments';
import { indexShortTerms } from './search';
import { changingViews } from './view-cache';

/** Rows of the short-term search index written per step (~30 ms each on 2 cores): the event loop stays free. */
const GRAMS_STEP = 4000;

/**
 * After a sync commit, off the sync's critical path: computes the site's memoised views so they are ready before the
 * renderer asks (the long lists are read in pages straight from their indexes, no memo to fill; what is memoised is
 * small: the billing and inbox summaries and the entitlements), then indexes the short search terms of the rows the
 * commit wrote (search.ts), a step per turn of the event loop. Until a row is indexed, searches scan it: slower,
 * never wrong.
 */
export function warmViews(db: Database, siteId: string, now: Date): void {
  warmSummaries(db, siteId, now);
  indexInSteps(db, siteId);
}

/** The memoised views the screens open with, computed on the connection they are read from. */
export function warmSummaries(db: Database, siteId: string, now: Date): void {
  getBillingSummary(db, siteId, now);
  getNotificationsSummary(db, siteId);
  getEntitlements(db, siteId, now);
}

/**
 * The short-term search index through the writer (worker-contract `search:index-step`), one step per call: between
 * steps the writer takes other calls (a change the student made), and the main thread only waits for answers.
 * Returns the rows indexed.
 */
export async function indexShortTermsInSteps(step: (maxRows: number) => Promise<number>, stopped: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    if (stopped()) return total;
    const indexed = await step(GRAMS_STEP);
    total += indexed;
    if (indexed < GRAMS_STEP) return total;
  }
}

function indexInSteps(db: Database, siteId: string): void {
  if (!db.open) return;
  let indexed: number;
  try {
    // No view reads the search tables: the memo is kept.
    indexed = changingViews(db, siteId, [], () => indexShortTerms(db, GRAMS_STEP));
  } catch {
    // Best effort (e.g. the database closed, or busy with another writer): the rows left are scanned by searches
    // and indexed after the next commit.
    return;
  }
  if (indexed === GRAMS_STEP) setImmediate(() => indexInSteps(db, siteId));
}
