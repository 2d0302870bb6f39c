import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { captureBefore, recordChanges } from './change-record';
import { replaceConsultingServices } from './consulting';
import { replaceCourses } from './courses';
import { replaceDigitalProducts, replaceEventRegistrations } from './entitlements';
import {
  replaceNotifications,
  replaceSubscriptions,
  resetNotificationOverlay,
  resetSubscriptionOverlay,
} from './notifications';
import { reapplyPending } from './outbox';
import { replacePayments } from './payments';
import { replaceProfile } from './profile';
import type { SiteSnapshot } from './records';
import { rebuildSearchIndex, searchKindsOf } from './search';
import { hasSite } from './sites';
import { prepared } from './statements';
import { CoreError } from '../errors';
import { changingViews, type ViewArea } from './view-cache';
import {
  PART_NAMES,
  SYNCED_PARTS,
  type CommitResult,
  type PagedPart,
  type PageCursors,
  type PartName,
} from './parts';
import type { ReadableDB, WritableDB } from './handles';

/**
 * A part's digest: the SHA-256 of its JSON (writer-handlers.ts builds the same bytes page by page).
 */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64');
}

/**
 * Commits the snapshot unless it is what is stored already: every part given has the stored digest,
 * and nothing local sits on top (no pending outbox change, no inbox row showing a local value).
 * Then no transaction runs at all: a no-change re-sync writes nothing, changes no view and sends no
 * change event.
 */
export function commitSnapshotIfChanged(
  db: WritableDB,
  siteId: string,
  snapshot: SiteSnapshot,
  staged?: ReadonlyMap<PartName, string>,
  cursors: PageCursors = {},
): CommitResult {
  const counts = countSnapshot(snapshot);
  // Digested once, for the check and the commit (a part's digest serialises and hashes all of its
  // rows); a staged snapshot comes with its digests, hashed as its pages arrived.
  const digests = staged ?? digestsOf(snapshot);
  const result: CommitResult = isStored(db, siteId, snapshot, digests)
    ? { rewritten: [], unchanged: true, counts }
    : { rewritten: commitDigested(db, siteId, snapshot, digests), unchanged: false, counts };
  storeCursors(db, siteId, cursors);
  return result;
}

/**
 * Stores the cursors each part paged with beside its digest, where they differ from the stored
 * ones: a rewritten part, or rows unchanged but paged differently (a site whose cursors are not
 * positions, or cursors stored wrong), so the next sync's hint is right. Nothing a view reads
 * changes. On a site whose cursors name positions, an unchanged part pages the same way and nothing
 * is written. A hint only: it is not part of the commit's transaction.
 */
function storeCursors(db: WritableDB, siteId: string, cursors: PageCursors): void {
  const stale: [PagedPart, string][] = [];
  const stored = prepared<{ siteId: string; part: string }, { cursors: string | null }>(
    db,
    'SELECT cursors FROM sync_parts WHERE site_id = @siteId AND part = @part',
  );
  for (const [part, list] of Object.entries(cursors) as [PagedPart, readonly (string | null)[]][]) {
    const row = stored.get({ siteId, part });
    const walked = JSON.stringify(list);
    if (row && row.cursors !== walked) stale.push([part, walked]);
  }
  if (stale.length === 0) return;
  changingViews(db, siteId, [], () =>
    db.transaction(() => {
      const update = prepared<{ siteId: string; part: string; cursors: string }>(
        db,
        'UPDATE sync_parts SET cursors = @cursors WHERE site_id = @siteId AND part = @part',
      );
      for (const [part, walked] of stale) update.run({ siteId, part, cursors: walked });
    })(),
  );
}

/**
 * The page cursors stored with each part's digest (migration 008), for the next fetch's `cursors`.
 * A part whose rows did not change keeps the cursors of the commit that wrote them: the same rows
 * page the same way on a site whose cursors name a position. Anything that is not a list of cursors
 * starting with null is left out (a hint only: the fetch checks every page it takes from it).
 */
export function storedPageCursors(db: ReadableDB, siteId: string): PageCursors {
  const out: { -readonly [P in PagedPart]?: readonly (string | null)[] } = {};
  const rows = prepared<{ siteId: string }, { part: PagedPart; cursors: string }>(
    db,
    'SELECT part, cursors FROM sync_parts WHERE site_id = @siteId AND cursors IS NOT NULL',
  ).all({ siteId });
  for (const { part, cursors } of rows) {
    try {
      const list = JSON.parse(cursors) as unknown;
      if (
        Array.isArray(list) &&
        list.length > 0 &&
        list[0] === null &&
        list.slice(1).every((c) => typeof c === 'string')
      )
        out[part] = list as (string | null)[];
    } catch {
      // Not JSON: no hint for this part.
    }
  }
  return out;
}

export function digestsOf(snapshot: SiteSnapshot): Map<PartName, string> {
  const digests = new Map<PartName, string>();
  for (const [part, value] of Object.entries(snapshot) as [PartName, unknown][]) {
    if (value !== undefined) digests.set(part, digestOf(value));
  }
  return digests;
}

function storedDigests(db: Database, siteId: string): Map<PartName, string> {
  return new Map(
    prepared<{ siteId: string }, { part: PartName; digest: string }>(
      db,
      'SELECT part, digest FROM sync_parts WHERE site_id = @siteId',
    )
      .all({ siteId })
      .map((r) => [r.part, r.digest]),
  );
}

function isStored(
  db: WritableDB,
  siteId: string,
  snapshot: SiteSnapshot,
  digests: ReadonlyMap<PartName, string>,
): boolean {
  if (!hasSite(db, siteId)) return false;
  const stored = storedDigests(db, siteId);
  for (const [part, digest] of digests) {
    if (stored.get(part) !== digest) return false;
  }
  const has = (sql: string) => prepared<{ siteId: string }>(db, sql).get({ siteId }) !== undefined;
  if (has("SELECT 1 FROM outbox WHERE site_id = @siteId AND status = 'pending' LIMIT 1"))
    return false;
  if (
    snapshot.notifications !== undefined &&
    has(
      'SELECT 1 FROM notifications WHERE site_id = @siteId AND read_at IS NOT server_read_at LIMIT 1',
    )
  )
    return false;
  if (
    snapshot.subscriptions !== undefined &&
    has(
      'SELECT 1 FROM notification_subscriptions WHERE site_id = @siteId AND enabled IS NOT server_enabled LIMIT 1',
    )
  ) {
    return false;
  }
  return true;
}

/** Rows per part of a snapshot, as a sync run's summary reports them. */
export function countSnapshot(snapshot: SiteSnapshot): Record<string, number> {
  const counts: Record<string, number> = {};
  if (snapshot.courses) {
    counts.courses = snapshot.courses.length;
    counts.sections = snapshot.courses.reduce((n, c) => n + c.sections.length, 0);
    counts.lectures = snapshot.courses.reduce(
      (n, c) => n + c.sections.reduce((m, s) => m + s.lectures.length, 0),
      0,
    );
  }
  if (snapshot.digitalProducts) counts.digitalProducts = snapshot.digitalProducts.length;
  if (snapshot.consultingServices) counts.consultingServices = snapshot.consultingServices.length;
  if (snapshot.eventRegistrations) counts.eventRegistrations = snapshot.eventRegistrations.length;
  if (snapshot.payments) counts.payments = snapshot.payments.length;
  if (snapshot.notifications) counts.notifications = snapshot.notifications.length;
  if (snapshot.subscriptions) counts.subscriptions = snapshot.subscriptions.length;
  return counts;
}

/**
 * The memoised views a commit that rewrote these parts changes (the inbox overlay is applied on
 * every commit).
 */
export function viewsOfCommit(rewritten: readonly PartName[]): ViewArea[] {
  return ['notifications', ...rewritten.flatMap((part) => SYNCED_PARTS[part].views)];
}

/**
 * Commits one site's snapshot in ONE transaction (ARCHITECTURE "each sync batch in one
 * db.transaction"): a view never sees half a sync, and if anything throws nothing changes. Every
 * part given replaces the stored rows (rows the server no longer returns disappear), unless it is
 * byte for byte what the last commit stored; parts left undefined keep theirs. Pending outbox
 * changes are applied again on top (over the server's values), and the search rows of the rewritten
 * parts are rebuilt. Returns the parts rewritten.
 */
export function commitSnapshot(db: WritableDB, siteId: string, snapshot: SiteSnapshot): PartName[] {
  return commitDigested(db, siteId, snapshot, digestsOf(snapshot));
}

function commitDigested(
  db: WritableDB,
  siteId: string,
  snapshot: SiteSnapshot,
  digests: ReadonlyMap<PartName, string>,
): PartName[] {
  // The views read what was rewritten; the inbox overlay and pending changes are applied on every
  // commit.
  return changingViews(
    db,
    siteId,
    viewsOfCommit,
    db.transaction(() => {
      // The site must exist (the sync ensures it when a run starts). If it was removed while the
      // run was fetching, the snapshot is dropped rather than bringing the site back.
      if (!hasSite(db, siteId))
        throw new CoreError('not-found', 'This site was removed while it was syncing.', { siteId });
      const stored = storedDigests(db, siteId);
      const changed = (part: PartName): boolean =>
        snapshot[part] !== undefined && stored.get(part) !== digests.get(part);
      const rewritten: PartName[] = [];
      const write = <K extends PartName>(
        part: K,
        replace: (value: NonNullable<SiteSnapshot[K]>) => void,
      ) => {
        if (!changed(part)) return;
        replace(snapshot[part]!);
        rewritten.push(part);
        const digest = digests.get(part);
        if (digest !== undefined) {
          prepared<{ siteId: string; part: string; digest: string }>(
            db,
            'INSERT INTO sync_parts (site_id, part, digest) VALUES (@siteId, @part, @digest) ON CONFLICT (site_id, part) DO UPDATE SET digest = excluded.digest',
          ).run({ siteId, part, digest });
        }
      };
      // What the student will want to know changed (change-record.ts): the rows before, compared
      // after.
      const before = captureBefore(db, siteId, PART_NAMES.filter(changed));
      for (const part of PART_NAMES)
        write(part, (v) =>
          (REPLACE[part] as (db: Database, siteId: string, value: unknown) => void)(db, siteId, v),
        );
      if (before) recordChanges(db, siteId, before, new Date().toISOString());
      // Unchanged inbox parts still drop local changes the site refused since (failed outbox
      // entries): back to the server's values; pending ones are applied again just below.
      if (snapshot.notifications !== undefined && !rewritten.includes('notifications'))
        resetNotificationOverlay(db, siteId);
      if (snapshot.subscriptions !== undefined && !rewritten.includes('subscriptions'))
        resetSubscriptionOverlay(db, siteId);
      reapplyPending(db, siteId);
      const kinds = searchKindsOf(rewritten);
      if (kinds.length > 0) rebuildSearchIndex(db, siteId, kinds);
      return rewritten;
    }),
  );
}

/** How each part's rows are replaced (the table modules); the order is SYNCED_PARTS'. */
const REPLACE: {
  readonly [P in PartName]: (
    db: Database,
    siteId: string,
    value: NonNullable<SiteSnapshot[P]>,
  ) => void;
} = {
  profile: replaceProfile,
  courses: replaceCourses,
  digitalProducts: replaceDigitalProducts,
  eventRegistrations: replaceEventRegistrations,
  consultingServices: replaceConsultingServices,
  payments: replacePayments,
  notifications: replaceNotifications,
  subscriptions: replaceSubscriptions,
};
