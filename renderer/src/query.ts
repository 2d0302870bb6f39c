import {
  keepPreviousData,
  notifyManager,
  QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Channel, ChannelInput, ChannelOutput } from '../../electron/common/ipc-contract';
import type { Page } from '../../electron/common/view-models';
import { call } from './api';
import { invalidateSite } from './query-refresh';

export { invalidateSite, refreshQueries } from './query-refresh';

/**
 * Data through react-query, keyed by [channel, input] so `data:changed` for a site can invalidate
 * every query whose input names that site.
 */
// Cache changes reach the components in a microtask, not react-query's default setTimeout(0): a
// controlled input whose value comes from the cache (a switch written with setQueryData in its
// onChange) is then re-rendered before the browser paints or handles the next event, instead of
// springing back to its old state for a task.
notifyManager.setScheduler(queueMicrotask);

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      networkMode: 'always',
    },
    mutations: { networkMode: 'always' },
  },
});

type InputArgs<C extends Channel> = ChannelInput<C> extends undefined ? [] : [ChannelInput<C>];

export function channelKey<C extends Channel>(
  channel: C,
  input?: ChannelInput<C>,
): readonly unknown[] {
  return input === undefined ? [channel] : [channel, input];
}

export function useChannel<C extends Channel>(
  channel: C,
  input: ChannelInput<C>,
  options: Omit<UseQueryOptions<ChannelOutput<C>, Error>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<ChannelOutput<C>, Error>({
    queryKey: channelKey(channel, input),
    queryFn: () => call(channel, ...([input] as unknown as InputArgs<C>)),
    ...options,
  });
}

/**
 * A mutation over one channel; refetches the site's queries afterwards (the core also emits
 * data:changed).
 */
export function useChannelMutation<C extends Channel>(channel: C) {
  const client = useQueryClient();
  return useMutation<ChannelOutput<C>, Error, ChannelInput<C>>({
    mutationFn: (input) => call(channel, ...([input] as unknown as InputArgs<C>)),
    onSettled: (_data, _error, input) => {
      const siteId =
        typeof input === 'object' && input !== null
          ? (input as { siteId?: unknown }).siteId
          : undefined;
      if (typeof siteId === 'string') void invalidateSite(client, siteId);
    },
  });
}

/** Channels answering one page of a list (`{offset, limit}` in, Page out). */
export type PageChannel = {
  [C in Channel]: ChannelOutput<C> extends Page<unknown> ? C : never;
}[Channel];
type PageItem<C extends PageChannel> = ChannelOutput<C> extends Page<infer T> ? T : never;
type PageParam = { readonly offset: number; readonly limit: number };

export interface PagesOptions<T> {
  /**
   * Identity of an item: a page read after the list changed may repeat an item of the page before.
   */
  readonly getKey: (item: T) => string;
  readonly pageSize?: number;
  /** A shorter first page (e.g. a preview). */
  readonly firstPageSize?: number;
  /**
   * Keep the previous input's items on screen while the next input's first page loads (a filter
   * changed).
   */
  readonly keepPrevious?: boolean;
  /** False: nothing is fetched yet (e.g. until the student asks for more). */
  readonly enabled?: boolean;
}

/**
 * A long list read page by page (useInfiniteQuery): the first page at once, the next one when asked
 * (`loadMore`, e.g. as the student scrolls near the end of a VirtualList). Keyed by [channel,
 * input] like useChannel, so a `data:changed` or a mutation on the site refetches every page loaded
 * so far.
 */
export function useChannelPages<C extends PageChannel>(
  channel: C,
  input: Omit<ChannelInput<C>, 'offset' | 'limit'>,
  {
    getKey,
    pageSize = 50,
    firstPageSize = pageSize,
    keepPrevious = false,
    enabled = true,
  }: PagesOptions<PageItem<C>>,
) {
  const q = useInfiniteQuery({
    queryKey: channelKey(channel, input as ChannelInput<C>),
    queryFn: ({ pageParam }) =>
      call(channel, ...([{ ...input, ...pageParam }] as unknown as InputArgs<C>)),
    initialPageParam: { offset: 0, limit: firstPageSize } as PageParam,
    getNextPageParam: (last): PageParam | undefined => {
      const next = (last as Page<PageItem<C>>).nextOffset;
      return next === null ? undefined : { offset: next, limit: pageSize };
    },
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    enabled,
  });
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (q.data?.pages ?? [])
      .flatMap((p) => (p as Page<PageItem<C>>).items)
      .filter((item) => {
        const key = getKey(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }, [q.data, getKey]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  /**
   * Loads the next page unless one is loading or there is none (fetchNextPage alone would restart a
   * running one).
   */
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const pages = q.data?.pages;
  const last = pages?.[pages.length - 1] as Page<PageItem<C>> | undefined;
  return { query: q, items, first: pages?.[0], total: last?.total ?? 0, loadMore };
}
