import { InfiniteQueryObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { invalidateSite, refreshQueries } from '../../renderer/src/query-refresh';

/**
 * A view read that left before a sync's commit and answers after it: the commit's data:changed
 * event arrives while the read is on its way. The renderer must read again, or the screen keeps "no
 * courses yet" after a sync that brought courses (seen in the browser-host journey when the first
 * read raced the first sync).
 */

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A tiny "core": the view answers what the store held when the read started, after a delay. */
function slowStore(initial: string) {
  const store = { value: initial, reads: 0 };
  const read = async () => {
    store.reads++;
    const seen = store.value;
    await tick(40);
    return seen;
  };
  return { store, read };
}

const clients: QueryClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.clear();
});
function newClient() {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  clients.push(c);
  return c;
}

describe('refreshing views when the core says its data changed', () => {
  it('invalidateQueries alone keeps the stale answer of a first read in flight (why refreshQueries exists)', async () => {
    const client = newClient();
    const { store, read } = slowStore('empty');
    const unsubscribe = new QueryObserver(client, {
      queryKey: ['library:page', { siteId: 's1' }],
      queryFn: read,
    }).subscribe(() => {});
    await tick(5);
    store.value = 'courses';
    await client.invalidateQueries({ queryKey: ['library:page'] });
    await tick(100);
    expect(store.reads).toBe(1);
    expect(client.getQueryData(['library:page', { siteId: 's1' }])).toBe('empty');
    unsubscribe();
  });

  it('invalidateSite reads again after a change that came while the first read was on its way', async () => {
    const client = newClient();
    const { store, read } = slowStore('empty');
    const states: string[] = [];
    const unsubscribe = new QueryObserver(client, {
      queryKey: ['library:page', { siteId: 's1', filter: 'all' }],
      queryFn: read,
    }).subscribe((r) => {
      if (r.status === 'error') states.push('error');
    });
    await tick(5);
    store.value = 'courses';
    await invalidateSite(client, 's1');
    await tick(100);
    expect(store.reads).toBe(2);
    expect(client.getQueryData(['library:page', { siteId: 's1', filter: 'all' }])).toBe('courses');
    // The cancelled read is reverted quietly: the screen never shows an error for it.
    expect(states).toEqual([]);
    unsubscribe();
  });

  it('another site’s queries are left alone', async () => {
    const client = newClient();
    const one = slowStore('a');
    const two = slowStore('b');
    const offs = [
      new QueryObserver(client, {
        queryKey: ['library:page', { siteId: 's1' }],
        queryFn: one.read,
      }).subscribe(() => {}),
      new QueryObserver(client, {
        queryKey: ['library:page', { siteId: 's2' }],
        queryFn: two.read,
      }).subscribe(() => {}),
    ];
    await tick(100);
    await invalidateSite(client, 's1');
    await tick(100);
    expect(one.store.reads).toBe(2);
    expect(two.store.reads).toBe(1);
    for (const off of offs) off();
  });

  it('a paged list whose first page was in flight reads its first page again', async () => {
    const client = newClient();
    const { store, read } = slowStore('empty');
    const unsubscribe = new InfiniteQueryObserver(client, {
      queryKey: ['notifications:page', { siteId: 's1' }],
      queryFn: read,
      initialPageParam: 0,
      getNextPageParam: () => undefined,
    }).subscribe(() => {});
    await tick(5);
    store.value = 'notices';
    await refreshQueries(client, { queryKey: ['notifications:page'] });
    await tick(100);
    expect(
      client.getQueryData<{ pages: string[] }>(['notifications:page', { siteId: 's1' }])?.pages,
    ).toEqual(['notices']);
    unsubscribe();
  });

  it('a change at any site reads the "All schools" library again', async () => {
    const client = newClient();
    const all = slowStore('a+b');
    const off = new QueryObserver(client, {
      queryKey: ['library:all-page', { filter: 'all', sort: 'service' }],
      queryFn: all.read,
    }).subscribe(() => {});
    await tick(100);
    await invalidateSite(client, 's2');
    await tick(100);
    expect(all.store.reads).toBe(2);
    off();
  });
});
