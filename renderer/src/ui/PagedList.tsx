import { Loading } from './states';
import { VirtualList, type VirtualListProps } from './VirtualList';

/** What useChannelPages returns, as far as a list needs it. */
export interface LoadedPages<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly loadMore: () => void;
  readonly query: { readonly isFetchingNextPage: boolean };
}

/**
 * A windowed list read page by page: the next page loads as the student scrolls near the end of
 * what is loaded.
 */
export function PagedList<T>({
  pages,
  ...list
}: { readonly pages: LoadedPages<T> } & Omit<
  VirtualListProps<T>,
  'items' | 'total' | 'onEndReached'
>) {
  return (
    <>
      <VirtualList
        items={pages.items}
        total={pages.total}
        onEndReached={pages.loadMore}
        {...list}
      />
      {pages.query.isFetchingNextPage && <Loading />}
    </>
  );
}
