import { QueryClient, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { Channel, ChannelInput, ChannelOutput } from '../../electron/common/ipc-contract';
import { call } from './api';

/**
 * Data through react-query, keyed by [channel, input] so `data:changed` for a site can invalidate every query
 * whose input names that site.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

type InputArgs<C extends Channel> = ChannelInput<C> extends undefined ? [] : [ChannelInput<C>];

export function channelKey<C extends Channel>(channel: C, input?: ChannelInput<C>): readonly unknown[] {
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

/** Invalidates every query whose input is for `siteId`. */
export function invalidateSite(client: QueryClient, siteId: string): Promise<void> {
  return client.invalidateQueries({
    predicate: (q) => {
      const input = q.queryKey[1];
      return typeof input === 'object' && input !== null && (input as { siteId?: unknown }).siteId === siteId;
    },
  });
}

/** A mutation over one channel; refetches the site's queries afterwards (the core also emits data:changed). */
export function useChannelMutation<C extends Channel>(channel: C) {
  const client = useQueryClient();
  return useMutation<ChannelOutput<C>, Error, ChannelInput<C>>({
    mutationFn: (input) => call(channel, ...([input] as unknown as InputArgs<C>)),
    onSettled: (_data, _error, input) => {
      const siteId = typeof input === 'object' && input !== null ? (input as { siteId?: unknown }).siteId : undefined;
      if (typeof siteId === 'string') void invalidateSite(client, siteId);
    },
  });
}
