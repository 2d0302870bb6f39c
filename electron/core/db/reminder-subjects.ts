/**
 * What each reminder kind can be about, read from the saved copy: the items whose moment is ahead
 * within the largest lead time asked for (an access end, an event's start, a code's deadline), the
 * lectures that opened, and one item by id (a snoozed one: still there only while it still
 * matters). Bounded: at most `limit` a kind.
 */
import type { Database } from 'better-sqlite3';
import { siteText } from '../../common/site-values';
import { UNPAID_CODE } from './payment-views';
import { prepared } from './statements';

export type SubjectKind =
  'access-ending' | 'lecture-unlocked' | 'payment-due' | 'event-starting' | 'plan-behind';

export interface ReminderSubject {
  readonly siteId: string;
  readonly id: string;
  readonly title: string;
  readonly courseTitle: string | null;
  /** The moment it is about (ISO); '' for a lecture opened without a date. */
  readonly dueAt: string;
  readonly dueMs: number | null;
}

interface Row {
  site_id: string;
  id: string;
  title: string;
  course_title: string | null;
  due_at: string;
  due_ms: number | null;
}

const ms = (column: string) => `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)`;

/** Per kind: the items due within (@now, @until], or the one @id (then @until is unbounded). */
const AHEAD: Record<Exclude<SubjectKind, 'lecture-unlocked' | 'plan-behind'>, string> = {
  'access-ending': `SELECT c.site_id, c.id, c.title, NULL AS course_title, c.expire_date AS due_at, c.expires_ms AS due_ms
      FROM courses c
     WHERE c.has_lifetime_access = 0 AND c.expire_date IS NOT NULL AND c.expires_ms > @now AND c.expires_ms <= @until
       AND c.completed_at IS NULL AND c.percent < 100 AND (@id IS NULL OR (c.site_id = @site AND c.id = @id))
     ORDER BY c.expires_ms, c.site_id, c.id LIMIT @limit`,
  'event-starting': `SELECT e.site_id, e.id, e.title, NULL AS course_title, e.starts_at AS due_at, ${ms('e.starts_at')} AS due_ms
      FROM event_registrations e
     WHERE ${ms('e.starts_at')} > @now AND ${ms('e.starts_at')} <= @until
       AND (@id IS NULL OR (e.site_id = @site AND e.id = @id))
     ORDER BY ${ms('e.starts_at')}, e.site_id, e.id LIMIT @limit`,
  // A code not paid and not expired (payment-views.ts UNPAID_CODE): paid, it is no longer here.
  'payment-due': `SELECT p.site_id, p.id, p.trade_no AS title, NULL AS course_title, p.expired_at AS due_at, p.expires_ms AS due_ms
      FROM payments p
     WHERE ${UNPAID_CODE} AND p.expires_ms > @now AND p.expires_ms <= @until
       AND (@id IS NULL OR (p.site_id = @site AND p.id = @id))
     ORDER BY p.expires_ms, p.site_id, p.id LIMIT @limit`,
};

/**
 * Lectures that opened in a course still open: their date passed (within `@since`), or the school
 * now sends open one this app saw locked (opened early, or without a date: its moment is '').
 */
const OPENED = `SELECT l.site_id, l.id, l.title, c.title AS course_title, coalesce(l.unlock_at, '') AS due_at,
         ${ms('l.unlock_at')} AS due_ms
    FROM lectures l JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
   WHERE ((l.unlock_at IS NOT NULL AND ${ms('l.unlock_at')} <= @now AND ${ms('l.unlock_at')} > @since)
          OR (l.is_locked = 0 AND EXISTS (SELECT 1 FROM reminder_marks k WHERE k.site_id = l.site_id
               AND k.kind = 'lecture-locked' AND k.subject_id = l.id)))
     AND (c.has_lifetime_access = 1 OR c.expires_ms IS NULL OR c.expires_ms > @now)
     AND (@id IS NULL OR (l.site_id = @site AND l.id = @id))
   ORDER BY ${ms('l.unlock_at')} DESC, l.site_id, l.id LIMIT @limit`;

const toSubject = (r: Row): ReminderSubject => ({
  siteId: r.site_id,
  id: r.id,
  title: siteText(r.title),
  courseTitle: r.course_title === null ? null : siteText(r.course_title),
  dueAt: r.due_at ?? '',
  dueMs: typeof r.due_ms === 'number' ? r.due_ms : null,
});

/** The items of `kind` due within `withinMs` from now (lectures: opened in the last `withinMs`). */
export function subjectsAhead(
  db: Database,
  kind: Exclude<SubjectKind, 'plan-behind'>,
  now: number,
  withinMs: number,
  limit: number,
): ReminderSubject[] {
  const args = { now, id: null, site: null, limit };
  const rows =
    kind === 'lecture-unlocked'
      ? prepared<object, Row>(db, OPENED).all({ ...args, since: now - withinMs })
      : prepared<object, Row>(db, AHEAD[kind]).all({ ...args, until: now + withinMs });
  return rows.map(toSubject);
}

/** One item, if it still matters now (a snoozed reminder's subject). */
export function subjectById(
  db: Database,
  kind: Exclude<SubjectKind, 'plan-behind'>,
  siteId: string,
  id: string,
  now: number,
): ReminderSubject | null {
  const args = { now, id, site: siteId, limit: 1 };
  const row =
    kind === 'lecture-unlocked'
      ? prepared<object, Row>(db, OPENED).get({ ...args, since: 0 })
      : prepared<object, Row>(db, AHEAD[kind]).get({ ...args, until: Number.MAX_SAFE_INTEGER });
  return row ? toSubject(row) : null;
}
