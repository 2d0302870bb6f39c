/**
 * What changed for the student at a sync (migration 021), decided inside the sync's commit: what
 * the saved copy held before is read first (captureBefore), the parts are rewritten, and the new
 * rows are compared with it (recordChanges). Only what a student acts on is kept: new or unlocked
 * lectures, a course's access date moved or ended, a course added or gone, a payment paid, expired
 * or refunded, a new product or event. A part stored for the first time (the first sync after
 * adding a school) records nothing: everything in it is new, so nothing stands out. The record is
 * bounded: the newest CHANGE_RECORD_KEPT rows of each site.
 */
import type { Database } from 'better-sqlite3';
import { siteText } from '../../common/site-values';
import type { ChangeGroup, ChangeKind, ChangeView } from '../../common/view-models';
import type { PartName } from './parts';
import { forgetGoneCourses } from './course-news';
import { prepared } from './statements';

export const CHANGE_RECORD_KEPT = 200;

interface CourseState {
  readonly title: string;
  readonly expire: string | null;
  readonly lifetime: number;
}
interface PaymentState {
  readonly state: string;
  readonly refund: string;
  readonly tradeNo: string;
  readonly title: string;
}

/**
 * The saved copy's rows a change is judged by, for the parts a commit rewrites that were stored
 * before.
 */
export interface SavedState {
  readonly courses?: Map<string, CourseState>;
  /** course id -> lecture id -> locked */
  readonly lectures?: Map<string, Map<string, boolean>>;
  readonly payments?: Map<string, PaymentState>;
  readonly products?: Map<string, string>;
  readonly events?: Map<string, string>;
}

const WATCHED: readonly PartName[] = [
  'courses',
  'payments',
  'digitalProducts',
  'eventRegistrations',
];

function readState(db: Database, siteId: string, parts: ReadonlySet<PartName>): SavedState {
  const p = { siteId };
  const all = <R>(sql: string) => prepared<{ siteId: string }, R>(db, sql).all(p);
  const state: {
    -readonly [K in keyof SavedState]: SavedState[K];
  } = {};
  if (parts.has('courses')) {
    state.courses = new Map(
      all<{ id: string } & CourseState>(
        'SELECT id, title, expire_date AS expire, has_lifetime_access AS lifetime FROM courses WHERE site_id = @siteId',
      ).map((r) => [r.id, r]),
    );
    const lectures = new Map<string, Map<string, boolean>>();
    for (const l of all<{ courseId: string; id: string; locked: number }>(
      'SELECT course_id AS courseId, id, is_locked AS locked FROM lectures WHERE site_id = @siteId',
    )) {
      let of = lectures.get(l.courseId);
      if (!of) lectures.set(l.courseId, (of = new Map()));
      of.set(l.id, l.locked === 1);
    }
    state.lectures = lectures;
  }
  if (parts.has('payments'))
    state.payments = new Map(
      all<{ id: string } & PaymentState>(
        `SELECT id, payment_state AS state, refunding_state AS refund, trade_no AS tradeNo,
           coalesce(CASE WHEN json_valid(line_items) THEN json_extract(line_items, '$[0].title') END, trade_no) AS title
         FROM payments WHERE site_id = @siteId`,
      ).map((r) => [r.id, { ...r, title: String(r.title) }]),
    );
  if (parts.has('digitalProducts'))
    state.products = new Map(
      all<{ id: string; title: string }>(
        'SELECT id, title FROM digital_products WHERE site_id = @siteId',
      ).map((r) => [r.id, r.title]),
    );
  if (parts.has('eventRegistrations'))
    state.events = new Map(
      all<{ id: string; title: string }>(
        'SELECT id, title FROM event_registrations WHERE site_id = @siteId',
      ).map((r) => [r.id, r.title]),
    );
  return state;
}

/**
 * Before the rewrite: the rows of the watched parts among `rewriting` that the saved copy held
 * already (a part with no stored digest is new to the copy and is left out). Null when nothing is
 * watched.
 */
export function captureBefore(
  db: Database,
  siteId: string,
  rewriting: readonly PartName[],
): { readonly parts: ReadonlySet<PartName>; readonly state: SavedState } | null {
  const stored = new Set(
    prepared<{ siteId: string }, { part: PartName }>(
      db,
      'SELECT part FROM sync_parts WHERE site_id = @siteId',
    )
      .all({ siteId })
      .map((r) => r.part),
  );
  const parts = new Set(rewriting.filter((p) => WATCHED.includes(p) && stored.has(p)));
  return parts.size === 0 ? null : { parts, state: readState(db, siteId, parts) };
}

interface Change {
  readonly kind: ChangeKind;
  readonly itemId: string;
  readonly courseId: string | null;
  readonly title: string;
  readonly detail: Record<string, string | number | null>;
}

function courseChanges(before: SavedState, after: SavedState, now: string): Change[] {
  const out: Change[] = [];
  const was = before.courses!;
  for (const [id, c] of after.courses!) {
    const old = was.get(id);
    const base = { itemId: id, courseId: id, title: c.title };
    if (!old) {
      out.push({ ...base, kind: 'course-added', detail: {} });
      continue;
    }
    const had = before.lectures!.get(id) ?? new Map<string, boolean>();
    let added = 0;
    let unlocked = 0;
    for (const [lecture, locked] of after.lectures!.get(id) ?? []) {
      const prior = had.get(lecture);
      if (prior === undefined) added++;
      else if (prior && !locked) unlocked++;
    }
    if (added > 0) out.push({ ...base, kind: 'lectures-new', detail: { count: added } });
    if (unlocked > 0) out.push({ ...base, kind: 'lectures-unlocked', detail: { count: unlocked } });
    const from = old.lifetime ? null : old.expire;
    const to = c.lifetime ? null : c.expire;
    if (from !== to) {
      const ended = to !== null && to <= now;
      out.push({ ...base, kind: ended ? 'access-ended' : 'access-moved', detail: { from, to } });
    }
  }
  for (const [id, c] of was)
    if (!after.courses!.has(id))
      out.push({ kind: 'course-gone', itemId: id, courseId: id, title: c.title, detail: {} });
  return out;
}

const REFUNDED = new Set(['refunded', 'partially_refunded']);

function paymentChanges(before: SavedState, after: SavedState): Change[] {
  const out: Change[] = [];
  for (const [id, p] of after.payments!) {
    const old = before.payments!.get(id);
    const base = { itemId: id, courseId: null, title: p.title, detail: { tradeNo: p.tradeNo } };
    if (p.state === 'paid' && old?.state !== 'paid') out.push({ ...base, kind: 'payment-paid' });
    else if (p.state === 'expired' && old !== undefined && old.state !== 'expired')
      out.push({ ...base, kind: 'payment-expired' });
    const refunded = (s?: PaymentState) =>
      s !== undefined && (s.state === 'refunded' || REFUNDED.has(s.refund));
    if (refunded(p) && !refunded(old)) out.push({ ...base, kind: 'payment-refunded' });
  }
  return out;
}

function newItems(
  kind: 'product-new' | 'event-new',
  before: Map<string, string>,
  after: Map<string, string>,
): Change[] {
  return [...after]
    .filter(([id]) => !before.has(id))
    .map(([id, title]) => ({ kind, itemId: id, courseId: null, title, detail: {} }));
}

/**
 * After the rewrite, in the same transaction: compares and keeps what changed, bounded per site.
 */
export function recordChanges(
  db: Database,
  siteId: string,
  before: NonNullable<ReturnType<typeof captureBefore>>,
  now: string,
): number {
  const after = readState(db, siteId, before.parts);
  const b = before.state;
  const changes = [
    ...(b.courses ? courseChanges(b, after, now) : []),
    ...(b.payments ? paymentChanges(b, after) : []),
    ...(b.products ? newItems('product-new', b.products, after.products!) : []),
    ...(b.events ? newItems('event-new', b.events, after.events!) : []),
  ];
  if (b.courses) forgetGoneCourses(db, siteId, now);
  if (changes.length === 0) return 0;
  const insert = prepared<Record<string, string | null>>(
    db,
    `INSERT INTO change_record (site_id, at, kind, item_id, course_id, title, detail)
     VALUES (@siteId, @at, @kind, @itemId, @courseId, @title, @detail)`,
  );
  // The newest are kept: a sync with more changes than the bound keeps its last ones.
  for (const c of changes.slice(-CHANGE_RECORD_KEPT))
    insert.run({
      siteId,
      at: now,
      kind: c.kind,
      itemId: c.itemId,
      courseId: c.courseId,
      title: siteText(c.title, 300),
      detail: JSON.stringify(c.detail),
    });
  prepared<{ siteId: string; keep: number }>(
    db,
    `DELETE FROM change_record WHERE site_id = @siteId AND id NOT IN (
       SELECT id FROM change_record WHERE site_id = @siteId ORDER BY id DESC LIMIT @keep)`,
  ).run({ siteId, keep: CHANGE_RECORD_KEPT });
  return changes.length;
}

interface ChangeRow {
  id: number;
  site_id: string;
  at: string;
  kind: ChangeKind;
  item_id: string;
  course_id: string | null;
  title: string;
  detail: string;
}

function toView(r: ChangeRow): ChangeView {
  let d: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(r.detail) as unknown;
    if (parsed !== null && typeof parsed === 'object') d = parsed as Record<string, unknown>;
  } catch {
    // Written by this module as JSON; anything else reads as no detail.
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: r.id,
    siteId: r.site_id,
    at: r.at,
    kind: r.kind,
    itemId: r.item_id,
    courseId: r.course_id,
    title: siteText(r.title),
    count: typeof d.count === 'number' ? d.count : null,
    from: str(d.from),
    to: str(d.to),
    tradeNo: str(d.tradeNo),
  };
}

/**
 * The changes Today has not shown yet, newest first, grouped by site (the sites in the order
 * given).
 */
export function getUnseenChanges(
  db: Database,
  siteIds: readonly string[],
  limitPerSite = 50,
): ChangeGroup[] {
  const read = prepared<{ siteId: string; limit: number }, ChangeRow>(
    db,
    'SELECT * FROM change_record WHERE site_id = @siteId AND seen_at IS NULL ORDER BY id DESC LIMIT @limit',
  );
  return siteIds
    .map((siteId) => ({ siteId, changes: read.all({ siteId, limit: limitPerSite }).map(toView) }))
    .filter((g) => g.changes.length > 0);
}

/** The changes recorded since `since` (the weekly digest), every site, newest first. */
export function getChangesSince(db: Database, since: string, limit = 500): ChangeView[] {
  return prepared<{ since: string; limit: number }, ChangeRow>(
    db,
    'SELECT * FROM change_record WHERE at > @since ORDER BY id DESC LIMIT @limit',
  )
    .all({ since, limit })
    .map(toView);
}

/** Today showed them: every change up to `upTo` of these sites is seen. */
export function markChangesSeen(
  db: Database,
  siteIds: readonly string[],
  upTo: number,
  now: string,
): number {
  return prepared<{ sites: string; upTo: number; now: string }>(
    db,
    `UPDATE change_record SET seen_at = @now
     WHERE site_id IN (SELECT value FROM json_each(@sites)) AND id <= @upTo AND seen_at IS NULL`,
  ).run({ sites: JSON.stringify(siteIds), upTo, now }).changes;
}
