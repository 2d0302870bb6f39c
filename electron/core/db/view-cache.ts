import type { Database } from 'better-sqlite3';
import type { AnyDB, ReadableDB, WritableDB } from './handles';

/**
 * Memoised view models. A view is recomputed only when data it reads changed or the clock crossed a
 * boundary where the view's time-dependent flags flip (an expiry, "expires soon", an event ending).
 * - Writers say which site's views they change (`changingViews`), so marking a notice read rebuilds
 *   only that site's notifications, not its billing of thousands of payments.
 * - Fail-safe: a write on this connection that no writer accounted for (`total_changes()` moved
 *   since the last account) drops every entry, and so does a commit by another connection
 *   (`PRAGMA data_version`, https://sqlite.org/pragma.html#pragma_data_version). A forgotten call
 *   costs speed, never correctness.
 * - Writes made by the writer worker on another connection (writer.ts) are announced with the views
 *   they change (`writtenElsewhere`), even before anything is memoised: its commits move
 *   `data_version` and only those views are dropped. While such a write is on its way, the views it
 *   may change are computed afresh (its commit may already be visible); the rest are served. A
 *   commit by any connection nobody announced still drops everything (noticed at the next read or
 *   announcement, whichever comes first: an announced write's answer accepts the data_version it
 *   leaves).
 * - Computing a view reports `validUntil`: the next instant after `now` at which its output would
 *   differ.
 * The views are read-only data; callers must not mutate what they get.
 */

/**
 * The families of cached views; each reads its own tables (notifications also reads the pending
 * outbox).
 */
export type ViewArea = 'library' | 'billing' | 'notifications' | 'entitlements';
const ALL_AREAS: readonly ViewArea[] = ['library', 'billing', 'notifications', 'entitlements'];

interface Entry {
  readonly version: string;
  readonly computedAt: number;
  readonly validUntil: number;
  readonly value: unknown;
}

interface Cache {
  readonly dataVersion: () => number;
  readonly totalChanges: () => number;
  readonly entries: Map<string, Entry>;
  /** Generation per `area\0siteId`. */
  readonly generations: Map<string, number>;
  /** total_changes() as of the last write a writer accounted for. */
  accounted: number;
  /** Bumped by an unaccounted write: every entry is stale. */
  epoch: number;
  /** How many changingViews() calls are running (nested writers). */
  depth: number;
  /** data_version as of the last commit by another connection that was accounted for. */
  acceptedDataVersion: number;
  /** Writes announced by `writtenElsewhere` whose answer has not come back yet. */
  readonly elsewhere: Set<{ readonly siteId: string; readonly areas: readonly ViewArea[] }>;
}

const MAX_ENTRIES = 256;
const caches = new WeakMap<Database, Cache>();

function cacheOf(db: Database): Cache {
  let cache = caches.get(db);
  if (!cache) {
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    cache = {
      dataVersion: () => dataVersion.get() as number,
      totalChanges: () => totalChanges.get() as number,
      entries: new Map(),
      generations: new Map(),
      accounted: 0,
      epoch: 0,
      depth: 0,
      acceptedDataVersion: 0,
      elsewhere: new Set(),
    };
    cache.accounted = cache.totalChanges();
    cache.acceptedDataVersion = cache.dataVersion();
    caches.set(db, cache);
  }
  return cache;
}

/**
 * Drops everything if this connection wrote since the last account without saying what it changed.
 */
function settle(cache: Cache): void {
  const changes = cache.totalChanges();
  if (changes !== cache.accounted) {
    cache.epoch += 1;
    cache.accounted = changes;
  }
}

/**
 * Runs a write and marks the given views of `siteId` stale; 'all' means every area, and a function
 * names them from the write's result. Writes that no cached view reads (sync runs, retry counters)
 * pass `[]` so they do not drop the cache. Writes made before (unaccounted) still drop everything;
 * a write that throws is not accounted for either. Nested calls (the snapshot commit runs the table
 * writers) are accounted for by the outermost one.
 */
export function changingViews<T>(
  db: WritableDB,
  siteId: string,
  areas: readonly ViewArea[] | 'all' | ((result: T) => readonly ViewArea[]),
  write: () => T,
): T {
  const cache = caches.get(db);
  if (!cache) return write(); // nothing memoised on this connection yet: nothing to keep or drop
  const outermost = cache.depth === 0;
  if (outermost) settle(cache);
  cache.depth += 1;
  let result: T;
  try {
    result = write();
  } finally {
    cache.depth -= 1;
  }
  bump(
    cache,
    siteId,
    areas === 'all' ? ALL_AREAS : typeof areas === 'function' ? areas(result) : areas,
  );
  if (outermost) cache.accounted = cache.totalChanges();
  return result;
}

/**
 * Runs a write another connection makes for this one (the writer worker) and marks the views of
 * `siteId` it changes stale once it answered: `areas` while it runs (every view it may change),
 * `after(result)` once it succeeded (what it did change; default `areas`).
 */
export async function writtenElsewhere<T>(
  db: ReadableDB,
  siteId: string,
  areas: readonly ViewArea[] | 'all',
  write: () => Promise<T>,
  after?: (result: T) => readonly ViewArea[],
): Promise<T> {
  // the reader is closed: nothing can be read, nothing to keep or drop
  if (!db.open) return write();
  // Announced even when nothing is memoised yet: a view first memoised while this write is on its
  // way (before its commit) must be dropped by it. And a commit nobody announced is noticed now,
  // before this write's answer accepts the data_version it leaves (else a memo read before that
  // commit would be served for good).
  const cache = cacheOf(db);
  acceptForeignCommits(cache);
  const declared = { siteId, areas: areas === 'all' ? ALL_AREAS : areas };
  cache.elsewhere.add(declared);
  let changed: readonly ViewArea[] = declared.areas;
  try {
    const result = await write();
    if (after) changed = after(result);
    return result;
  } finally {
    cache.elsewhere.delete(declared);
    bump(cache, siteId, changed);
    // Every commit so far came from announced writes, all answered: they are accounted for.
    if (cache.elsewhere.size === 0) cache.acceptedDataVersion = cache.dataVersion();
  }
}

/**
 * Drops every memoised view of this connection (the database under it was rebuilt: open.ts
 * checkOfflineDatabase).
 */
export function forgetViews(db: AnyDB): void {
  const cache = caches.get(db);
  if (cache) cache.epoch += 1;
}

function bump(cache: Cache, siteId: string, areas: readonly ViewArea[]): void {
  for (const area of areas) {
    const key = `${area}\u0000${siteId}`;
    cache.generations.set(key, (cache.generations.get(key) ?? 0) + 1);
  }
}

/**
 * Notices a commit nobody announced: with no announced write under way, a data_version that moved
 * drops every entry. Returns the connection's data_version.
 */
function acceptForeignCommits(cache: Cache): number {
  const dataVersion = cache.dataVersion();
  if (dataVersion !== cache.acceptedDataVersion && cache.elsewhere.size === 0) {
    cache.epoch += 1;
    cache.acceptedDataVersion = dataVersion;
  }
  return dataVersion;
}

export function cachedView<T>(
  db: Database,
  area: ViewArea,
  siteId: string,
  key: string,
  now: Date,
  compute: () => { value: T; validUntil: number },
): T {
  const cache = cacheOf(db);
  settle(cache);
  if (
    acceptForeignCommits(cache) !== cache.acceptedDataVersion &&
    [...cache.elsewhere].some((w) => w.siteId === siteId && w.areas.includes(area))
  ) {
    // An announced write that may change this view has committed or is about to: read the rows as
    // they are.
    return compute().value;
  }
  const version = `${cache.epoch}:${cache.generations.get(`${area}\u0000${siteId}`) ?? 0}`;
  const fullKey = `${area}\u0000${siteId}\u0000${key}`;
  const t = now.getTime();
  const entry = cache.entries.get(fullKey);
  if (entry && entry.version === version && t >= entry.computedAt && t < entry.validUntil)
    return entry.value as T;
  const { value, validUntil } = compute();
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(fullKey, { version, computedAt: t, validUntil, value });
  return value;
}

/** The earliest of the instants after `now` (ms); Infinity when none. */
export function nextBoundary(now: number, instants: Iterable<number>): number {
  let next = Number.POSITIVE_INFINITY;
  for (const t of instants) if (t > now && t < next) next = t;
  return next;
}
