import type { SiteSnapshot } from './records';

/** The parts of a site's snapshot and what a commit of them reports (the writer worker's contract re-exports these). */
export type PartName = keyof SiteSnapshot;
/** Parts that arrive a page at a time (Relay connections). */
export type PagedPart = 'courses' | 'digitalProducts' | 'eventRegistrations' | 'consultingServices' | 'payments' | 'notifications';
/** The `after` of each page of each paged part, in order (the first is null), as a fetch walked them to the end. */
export type PageCursors = Partial<Record<PagedPart, readonly (string | null)[]>>;
/** Parts that arrive whole in one answer. */
export type WholePart = 'profile' | 'subscriptions';

export interface CommitResult {
  /** Parts whose rows were replaced (their digest differed from the stored one). */
  readonly rewritten: readonly PartName[];
  /** Nothing differed from what is stored: no transaction was run, nothing was written, no view changed. */
  readonly unchanged: boolean;
  /** Rows per part of the committed snapshot (what the run's summary reports). */
  readonly counts: Readonly<Record<string, number>>;
}
