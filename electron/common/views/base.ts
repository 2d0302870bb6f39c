/** The types every view shares: ids, dates, one page of a long list. */

export type SiteId = string;
export type IsoDateTime = string;

/**
 * One page of a long list: the screens ask for what they show and load the next page as the student
 * scrolls, so no call builds a list of thousands of rows. Offsets count items of the list as
 * filtered.
 */
export interface Page<T> {
  readonly items: readonly T[];
  /** Items in the whole list (filter applied). */
  readonly total: number;
  /** Where the next page starts; null on the last page. */
  readonly nextOffset: number | null;
}
