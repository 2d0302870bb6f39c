import { MAX_CURSOR_LENGTH, MAX_PAGES_PER_PART, siteDataInvalid } from '../net/site-data';

/** What one walk through a connection met: its pages, cursors, ids and the site's count. */
export class WalkTally {
  readonly #afters: (string | null)[] = [];
  readonly #keepsNewest: boolean;
  #atBound = false;
  readonly #ids = new Set<string>();
  #rows = 0;
  #duplicates = 0;
  #totalCount: number | null = null;
  /**
   * Relay cursor connections end: a page whose next cursor was seen before in this walk (two
   * cursors taking turns, or the same one) would page for ever, and so would a site handing out
   * fresh cursors without end. Both are refused as the site's data, and the part's pages so far go
   * with the run (the stored rows stay).
   */
  readonly #seen = new Set<string | null>([null]);

  /**
   * `keepsNewest`: the part comes newest first and may end at the page bound (PagedQuery
   * `keepsNewest`).
   */
  constructor(deps: { readonly keepsNewest: boolean }) {
    this.#keepsNewest = deps.keepsNewest;
  }

  /** The cursor each page was asked for at, in order (the part's `PageCursors`). */
  get afters(): readonly (string | null)[] {
    return this.#afters;
  }

  get totalCount(): number | null {
    return this.#totalCount;
  }

  /** The page bound ended a part that keeps its newest pages (PagedQuery `keepsNewest`). */
  get atBound(): boolean {
    return this.#atBound;
  }

  page(after: string | null, count: number, ids: readonly string[], total: number | null): void {
    this.#afters.push(after);
    this.#rows += count - ids.length;
    for (const id of ids) {
      if (this.#ids.has(id)) this.#duplicates += 1;
      else this.#ids.add(id);
    }
    this.#totalCount = total;
  }

  /**
   * The next page's cursor, refused if it cannot end the connection (see #seen); null when the page
   * bound ends it.
   */
  onward(next: string | null): string | null {
    if (next === null || this.#seen.has(next))
      throw siteDataInvalid(next === null ? 'no-cursor' : 'cursor-cycle');
    if (next.length > MAX_CURSOR_LENGTH) throw siteDataInvalid('cursor-too-long');
    if (this.#afters.length >= MAX_PAGES_PER_PART) {
      // A part that comes newest first ends at the bound with the pages it has (when they held
      // anything).
      if (!this.#keepsNewest || this.walked() === 0) throw siteDataInvalid('too-many-pages');
      this.#atBound = true;
      return null;
    }
    this.#seen.add(next);
    return next;
  }

  pages(): number {
    return this.#afters.length;
  }

  /** Rows met once each (a node without an id counts as met once). */
  walked(): number {
    return this.#rows + this.#ids.size;
  }

  fraction(): number {
    const total = this.#totalCount;
    return total !== null && total > 0
      ? Math.min(1, (this.walked() + this.#duplicates) / total)
      : 1;
  }

  /**
   * No id met twice, and as many rows as the last page's totalCount (when the site sent one; a part
   * ended at the page bound holds fewer by design, its newest).
   */
  addsUp(): boolean {
    return (
      this.#duplicates === 0 &&
      (this.#atBound || this.#totalCount === null || this.#totalCount === this.walked())
    );
  }
}
