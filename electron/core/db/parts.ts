import type { SiteSnapshot } from './records';
import type { ViewArea } from './view-cache';

/**
 * The parts of a site's snapshot and what a commit of them reports (the writer worker's contract
 * re-exports these).
 */
export type PartName = keyof SiteSnapshot;

/**
 * The one table of synced parts, in commit order: whether a part arrives a page at a time (a Relay
 * connection) or whole in one answer, and which memoised views read it (profile and consulting are
 * read without the cache). PagedPart, WholePart and the views a commit changes all follow from it.
 */
export const SYNCED_PARTS = {
  profile: { paged: false, views: [] },
  courses: { paged: true, views: ['library'] },
  digitalProducts: { paged: true, views: ['entitlements'] },
  eventRegistrations: { paged: true, views: ['entitlements'] },
  consultingServices: { paged: true, views: [] },
  payments: { paged: true, views: ['billing'] },
  notifications: { paged: true, views: ['notifications'] },
  subscriptions: { paged: false, views: ['notifications'] },
} as const satisfies {
  readonly [P in PartName]-?: { readonly paged: boolean; readonly views: readonly ViewArea[] };
};

export const PART_NAMES = Object.keys(SYNCED_PARTS) as PartName[];

/** Parts that arrive a page at a time (Relay connections). */
export type PagedPart = {
  [P in PartName]: (typeof SYNCED_PARTS)[P]['paged'] extends true ? P : never;
}[PartName];
/**
 * The `after` of each page of each paged part, in order (the first is null), as a fetch walked them
 * to the end.
 */
export type PageCursors = Partial<Record<PagedPart, readonly (string | null)[]>>;
/** Parts that arrive whole in one answer. */
export type WholePart = Exclude<PartName, PagedPart>;

export interface CommitResult {
  /** Parts whose rows were replaced (their digest differed from the stored one). */
  readonly rewritten: readonly PartName[];
  /**
   * Nothing differed from what is stored: no transaction was run, nothing was written, no view
   * changed.
   */
  readonly unchanged: boolean;
  /** Rows per part of the committed snapshot (what the run's summary reports). */
  readonly counts: Readonly<Record<string, number>>;
}
