import type { Database } from 'better-sqlite3';
import type { SearchHitKind } from '../../../common/view-models';
import type { PartName } from '../parts';
import { prepared } from '../statements';
import { countSearchGarbage, searchState } from './state';
import { BODY_OF } from './bodies';
import { STATE_WORDS, wordsOf } from './words';

const INSERT = 'INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)';
/** Every indexed text in the index's one form (normalize.ts), as a query is matched. */
const form = (expression: string) => `search_form(${expression})`;

/**
 * What each kind's rows hold, written at commit time in the writer (snapshot.ts): `title` is what
 * the hit shows, `body` the other words it is found by. Every value is the site's text, indexed as
 * text only (search.ts never reads the user's input as FTS5 syntax); JSON columns are read only
 * where they are objects (json_each's type).
 */
const INDEXED = {
  // A course by its title and its instructor's name (an instructor's hit lists their courses: a
  // search of the name).
  course: `${INSERT} SELECT ${form('title')}, ${form(BODY_OF.course('courses'))}, site_id, 'course', id, id FROM courses WHERE site_id = @siteId`,
  section: `${INSERT} SELECT ${form('title')}, '', site_id, 'section', id, course_id FROM sections WHERE site_id = @siteId`,
  lecture: `${INSERT} SELECT ${form('title')}, '', site_id, 'lecture', id, course_id FROM lectures WHERE site_id = @siteId`,
  // One row per name, pointing at the instructor's first course in the library's order.
  instructor: `${INSERT} SELECT ${form('name')}, '', site_id, 'instructor', name, id FROM (
      SELECT trim(instructor_name) AS name, site_id, id, min(position) FROM courses
      WHERE site_id = @siteId AND trim(coalesce(instructor_name, '')) <> '' GROUP BY trim(instructor_name))`,
  // An order is found by its items' titles, its trade number, the words of its payments' states and
  // its items' kinds in both languages (words.ts: "refund" finds the refunded ones), and the ticket
  // names of the events it bought (a Ticket item names its event by the event's title), newest
  // first.
  order: `${INSERT} SELECT ${form(`coalesce((
      SELECT group_concat(t, ' · ') FROM (
        SELECT DISTINCT substr(json_extract(li.value, '$.title'), 1, 300) AS t FROM payments p, json_each(p.line_items) li
        WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no AND li.type = 'object' AND json_type(li.value, '$.title') = 'text')),
      '')`)}, ${form(`o.trade_no || ' ' || coalesce((SELECT group_concat(w, ' ') FROM (SELECT DISTINCT w FROM (
        SELECT ${wordsOf('p.payment_state', STATE_WORDS.paymentState)} AS w FROM payments p WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no
        UNION ALL SELECT ${wordsOf('p.refunding_state', STATE_WORDS.refundState)} FROM payments p WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no
        UNION ALL SELECT ${wordsOf("json_extract(li.value, '$.itemType')", STATE_WORDS.itemType)}
          FROM payments p, json_each(p.line_items) li WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no AND li.type = 'object'
        UNION ALL SELECT DISTINCT e.ticket_name FROM payments p, json_each(p.line_items) li
          JOIN event_registrations e ON e.site_id = p.site_id AND e.title = json_extract(li.value, '$.title')
          WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no AND li.type = 'object' AND json_extract(li.value, '$.itemType') = 'Ticket')
        WHERE w <> '')), '')`)}, o.site_id, 'order', o.trade_no, NULL
    FROM orders o WHERE o.site_id = @siteId ORDER BY o.created_at DESC, o.trade_no DESC`,
  // A payment by its own numbers: its payment code and bank (ATM, convenience store) and its
  // invoice number. Its order's number finds the order (which lists its payments); the hit is named
  // by that number, from the context.
  payment: `${INSERT} SELECT '', ${form(BODY_OF.payment('payments'))},
      site_id, 'payment', id, NULL FROM payments WHERE site_id = @siteId ORDER BY position`,
  product: `${INSERT} SELECT ${form('title')}, ${form(BODY_OF.product('digital_products'))}, site_id, 'product', id, NULL
    FROM digital_products WHERE site_id = @siteId ORDER BY position`,
  event: `${INSERT} SELECT ${form('title')}, ${form(BODY_OF.event('event_registrations'))}, site_id, 'event', id, NULL
    FROM event_registrations WHERE site_id = @siteId ORDER BY position`,
  consulting: `${INSERT} SELECT ${form('title')}, ${form(BODY_OF.consulting('consulting_services'))}, site_id,
      'consulting', id, course_id FROM consulting_services WHERE site_id = @siteId ORDER BY position`,
  notification: `${INSERT} SELECT ${form('title')}, ${form(BODY_OF.notification('notifications'))}, site_id, 'notification', id, NULL FROM notifications WHERE site_id = @siteId`,
} as const satisfies Record<SearchHitKind, string>;

export const ALL_KINDS = Object.keys(INDEXED) as SearchHitKind[];

/**
 * The kinds whose rows come from each synced part: a commit that rewrites the part rebuilds them.
 */
const KINDS_OF_PART: { readonly [P in PartName]: readonly SearchHitKind[] } = {
  profile: [],
  courses: ['course', 'section', 'lecture', 'instructor'],
  digitalProducts: ['product'],
  // An order is found by its tickets' names too (INDEXED.order).
  eventRegistrations: ['event', 'order'],
  consultingServices: ['consulting'],
  payments: ['order', 'payment'],
  notifications: ['notification'],
  subscriptions: [],
};

export function searchKindsOf(parts: readonly PartName[]): SearchHitKind[] {
  return [...new Set(parts.flatMap((part) => KINDS_OF_PART[part]))];
}

/**
 * Rebuilds one site's rows of the FTS5 index (all kinds, or those given) from its tables, inside
 * the caller's transaction, with rowids never used before. The short-term grams of the new rows are
 * written after the commit (indexShortTerms): until then those rows are searched by LIKE.
 */
export function rebuildSearchIndex(
  db: Database,
  siteId: string,
  kinds: readonly SearchHitKind[] = ALL_KINDS,
): void {
  for (const kind of kinds) {
    const { changes } = prepared<{ siteId: string; kind: string }>(
      db,
      'DELETE FROM search_index WHERE site_id = @siteId AND kind = @kind',
    ).run({
      siteId,
      kind,
    });
    countSearchGarbage(db, changes);
    const { first, count } = insertFromRowid(
      db,
      searchState(db).next_rowid,
      () => prepared<{ siteId: string }>(db, INDEXED[kind]).run({ siteId }).changes,
    );
    // The run of rowids the site's rows of this kind now hold (migration 009): what a search of the
    // site reads.
    if (count === 0)
      prepared<{ siteId: string; kind: string }>(
        db,
        'DELETE FROM search_ranges WHERE site_id = @siteId AND kind = @kind',
      ).run({ siteId, kind });
    else {
      prepared<{ siteId: string; kind: string; first: number; last: number }>(
        db,
        `INSERT INTO search_ranges (site_id, kind, first_rowid, last_rowid) VALUES (@siteId, @kind, @first, @last)
         ON CONFLICT (site_id, kind) DO UPDATE SET first_rowid = excluded.first_rowid, last_rowid = excluded.last_rowid`,
      ).run({ siteId, kind, first, last: first + count - 1 });
    }
  }
}

/**
 * Runs an insert whose rows must get rowids from `base` up (never reused, 007-short-terms). SQLite
 * gives a new row the largest rowid + 1 (https://sqlite.org/autoinc.html), so a placeholder at base
 * - 1, removed in the same transaction, makes the rows start at base: as fast as a plain INSERT ...
 * SELECT (numbering the rows in SQL cost ~40 ms more on the large seed's lectures).
 */
function insertFromRowid(
  db: Database,
  base: number,
  insert: () => number,
): { readonly first: number; readonly count: number } {
  const top =
    prepared<void, { rowid: number }>(
      db,
      'SELECT rowid FROM search_index ORDER BY rowid DESC LIMIT 1',
    ).get()?.rowid ?? 0;
  const placeholder = top < base - 1 ? base - 1 : null;
  if (placeholder !== null) {
    prepared<{ rowid: number }>(
      db,
      "INSERT INTO search_index (rowid, title, body, site_id, kind, item_id) VALUES (CAST(@rowid AS INTEGER), '', '', '', '', '')",
    ).run({
      rowid: placeholder,
    });
  }
  const inserted = insert();
  if (placeholder !== null)
    prepared<{ rowid: number }>(
      db,
      'DELETE FROM search_index WHERE rowid = CAST(@rowid AS INTEGER)',
    ).run({ rowid: placeholder });
  const first = Math.max(base, top + 1);
  prepared<{ next: number }>(db, 'UPDATE search_state SET next_rowid = @next WHERE id = 1').run({
    next: first + inserted,
  });
  return { first, count: inserted };
}
