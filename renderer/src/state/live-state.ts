import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ProductOfflineView } from '../../../electron/common/downloads';
import type {
  SignInProgress,
  SiteSummary,
  SyncProgress,
} from '../../../electron/common/view-models';
import { onEvent } from '../api';
import { channelKey, invalidateSite, refreshQueries } from '../query';

/**
 * What the core pushes as events, kept in one small store the views read with useSyncExternalStore.
 */
export interface LiveState {
  readonly signIn: Readonly<Record<string, SignInProgress>>;
  readonly sync: Readonly<Record<string, SyncProgress>>;
  /** null until the host tells us. */
  readonly online: boolean | null;
}

let state: LiveState = { signIn: {}, sync: {}, online: null };
const subscribers = new Set<() => void>();

function set(next: LiveState) {
  state = next;
  for (const s of subscribers) s();
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (cb) => {
      subscribers.add(cb);
      return () => subscribers.delete(cb);
    },
    () => state,
  );
}

export function clearSignIn(siteId: string) {
  const { [siteId]: _gone, ...rest } = state.signIn;
  set({ ...state, signIn: rest });
}

/** Subscribes to every core event once; returns the unsubscribe. */
export function connectEvents(client: QueryClient): () => void {
  const offs = [
    onEvent('sign-in:progress', (p) =>
      set({ ...state, signIn: { ...state.signIn, [p.siteId]: p } }),
    ),
    onEvent('sync:progress', (p) => {
      set({ ...state, sync: { ...state.sync, [p.siteId]: p } });
      // A run ended: refetch the site's views too, in case a view read the store between the commit
      // and its event.
      if (!p.running) void invalidateSite(client, p.siteId);
    }),
    onEvent('network:changed', (p) => {
      set({ ...state, online: p.online });
      void refreshQueries(client, { predicate: (q) => q.queryKey[0] === 'sync:status' });
    }),
    onEvent('settings:changed', (settings) =>
      client.setQueryData(channelKey('settings:get'), settings),
    ),
    onEvent('data:changed', (p) => void invalidateSite(client, p.siteId)),
    // A saved copy or a transfer changed: the product's row in the site's list is replaced in place
    // (progress comes four times a second; refetching the list each time would be wasted work), and
    // Settings > Storage refreshed when a transfer starts or ends.
    onEvent('downloads:changed', (view: ProductOfflineView) => {
      const key = channelKey('downloads:list', { siteId: view.siteId });
      const present = view.saved !== null || view.job !== null;
      const before = client.getQueryData<ProductOfflineView[]>(key);
      const old = before?.find((v) => v.productId === view.productId);
      if (before)
        client.setQueryData(
          key,
          present
            ? old
              ? before.map((v) => (v.productId === view.productId ? view : v))
              : [...before, view]
            : before.filter((v) => v.productId !== view.productId),
        );
      else void refreshQueries(client, { queryKey: key });
      if (
        !old ||
        !present ||
        (old.job === null) !== (view.job === null) ||
        old.job?.state !== view.job?.state
      ) {
        void refreshQueries(client, { predicate: (q) => q.queryKey[0] === 'downloads:storage' });
      }
    }),
    onEvent('sites:changed', (sites: SiteSummary[]) => {
      client.setQueryData(channelKey('sites:list'), sites);
      void refreshQueries(client, {
        predicate: (q) =>
          q.queryKey[0] !== 'sites:list' &&
          q.queryKey[0] !== 'app:get-info' &&
          q.queryKey[0] !== 'settings:get',
      });
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
