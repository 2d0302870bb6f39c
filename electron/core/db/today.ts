/**
 * The Today home (what to do next, across every school kept on this computer), read from the saved
 * copy so it works offline: the courses being watched, most recent first; what needs attention soon
 * (access ending within 14 days, unpaid ATM/convenience-store codes, events within 7 days, lectures
 * whose unlock date passed since the last sync). Each part is one bounded statement; the bench
 * keeps the whole read under 5 ms on the large seed.
 */
import type { Database } from 'better-sqlite3';
import type { TodayAttention, TodayCourse } from '../../common/view-models';
import { EXPIRES_SOON_MS } from './courses';
import { nextStepLecturesOf, nextStepOf, NO_LECTURES } from './next-step';
import { getPayableAcrossSites } from './payments';
import { siteText } from '../../common/site-values';
import { prepared } from './statements';
import type { ReadableDB } from './handles';

export const TODAY_COURSES = 5;
/** Per kind of attention item: the home shows the soonest; the screens behind it list the rest. */
export const TODAY_ATTENTION_PER_KIND = 10;
export const EVENTS_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;

export interface TodayData {
  readonly continueLearning: readonly TodayCourse[];
  readonly attention: readonly TodayAttention[];
}

interface WatchedRow {
  site_id: string;
  id: string;
  title: string;
  cover_image_url: string | null;
  last_watched_at: string | null;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  expire_date: string | null;
  completed_at: string | null;
  percent: number;
}

/**
 * Access still open (lifetime, no end, or an end after now): the SQL twin of
 * LibraryCourse.isExpired.
 */
const OPEN = '(c.has_lifetime_access = 1 OR c.expires_ms IS NULL OR c.expires_ms > @now)';
/** An ISO date as epoch ms in SQL; an unreadable one is NULL (never matched, never thrown). */
const ms = (column: string) => `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)`;

function continueLearning(db: Database, now: number): TodayCourse[] {
  const rows = prepared<{ now: number; limit: number }, WatchedRow>(
    db,
    `SELECT c.site_id, c.id, c.title, c.cover_image_url, c.last_watched_at, c.last_lecture_id, c.last_position_seconds,
            c.expire_date, c.completed_at, c.percent
       FROM courses c
      WHERE c.last_lecture_id IS NOT NULL AND c.completed_at IS NULL AND c.percent < 100 AND ${OPEN}
      ORDER BY coalesce(${ms('c.last_watched_at')}, 0) DESC, c.site_id, c.position
      LIMIT @limit`,
  ).all({ now, limit: TODAY_COURSES });
  // The lectures each next step needs, one statement per school (not one per course).
  const lecturesOf = nextStepLecturesOf(db, rows);
  const out: TodayCourse[] = [];
  for (const r of rows) {
    const nextStep = nextStepOf(
      {
        isExpired: false,
        expireDate: r.expire_date,
        completedAt: r.completed_at,
        lastPositionSeconds: r.last_position_seconds,
      },
      lecturesOf.get(`${r.site_id}\u0000${r.id}`) ?? NO_LECTURES,
      now,
    );
    // A course whose lectures are all done (its progress not yet updated) has nothing to continue.
    if (nextStep.kind === 'completed' || nextStep.kind === 'none') continue;
    out.push({
      siteId: r.site_id,
      courseId: r.id,
      title: siteText(r.title),
      coverImageUrl: r.cover_image_url,
      lastWatchedAt: r.last_watched_at,
      percent: r.percent,
      nextStep,
    });
  }
  return out;
}

function accessEnding(db: Database, now: number): TodayAttention[] {
  return prepared<
    { now: number; until: number; limit: number },
    { site_id: string; id: string; title: string; expire_date: string; percent: number }
  >(
    db,
    `SELECT c.site_id, c.id, c.title, c.expire_date, c.percent FROM courses c
      WHERE c.has_lifetime_access = 0 AND c.expires_ms > @now AND c.expires_ms <= @until AND c.expire_date IS NOT NULL
        AND c.completed_at IS NULL AND c.percent < 100
      ORDER BY c.expires_ms, c.site_id, c.position LIMIT @limit`,
  )
    .all({ now, until: now + EXPIRES_SOON_MS, limit: TODAY_ATTENTION_PER_KIND })
    .map((r) => ({
      kind: 'access-ending',
      siteId: r.site_id,
      courseId: r.id,
      title: siteText(r.title),
      endsAt: r.expire_date,
      percent: r.percent,
    }));
}

function paymentsDue(db: Database, now: Date): TodayAttention[] {
  return getPayableAcrossSites(db, now, TODAY_ATTENTION_PER_KIND).flatMap(
    ({ siteId, payment: p }): TodayAttention[] =>
      p.instructions
        ? [
            {
              kind: 'payment-due',
              siteId,
              paymentId: p.paymentId,
              tradeNo: p.tradeNo,
              title: p.lineItems.map((li) => siteText(li.title)).join(', '),
              amount: p.amount,
              currency: p.currency,
              paymentType: p.paymentType,
              codeNo: p.instructions.codeNo,
              expiresAt: p.instructions.expiredAt,
            },
          ]
        : [],
  );
}

function eventsSoon(db: Database, now: number): TodayAttention[] {
  return prepared<
    { now: number; until: number; limit: number },
    {
      site_id: string;
      id: string;
      title: string;
      starts_at: string;
      is_online: number;
      join_url: string | null;
    }
  >(
    db,
    `SELECT site_id, id, title, starts_at, is_online, join_url FROM event_registrations
      WHERE ${ms('starts_at')} > @now AND ${ms('starts_at')} <= @until
      ORDER BY ${ms('starts_at')}, site_id, id LIMIT @limit`,
  )
    .all({ now, until: now + EVENTS_WITHIN_MS, limit: TODAY_ATTENTION_PER_KIND })
    .map((r) => ({
      kind: 'event-soon',
      siteId: r.site_id,
      registrationId: r.id,
      title: siteText(r.title),
      startsAt: r.starts_at,
      isOnline: r.is_online === 1,
      joinUrl: r.join_url,
    }));
}

function lecturesUnlocked(db: Database, now: number): TodayAttention[] {
  return prepared<
    { now: number; limit: number },
    {
      site_id: string;
      course_id: string;
      course_title: string;
      id: string;
      title: string;
      unlock_at: string;
    }
  >(
    db,
    `SELECT l.site_id, l.course_id, c.title AS course_title, l.id, l.title, l.unlock_at
       FROM lectures l JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
      WHERE l.is_locked = 1 AND l.unlock_at IS NOT NULL AND ${ms('l.unlock_at')} <= @now AND ${OPEN}
      ORDER BY ${ms('l.unlock_at')} DESC, l.site_id, l.id LIMIT @limit`,
  )
    .all({ now, limit: TODAY_ATTENTION_PER_KIND })
    .map((r) => ({
      kind: 'lecture-unlocked',
      siteId: r.site_id,
      courseId: r.course_id,
      courseTitle: siteText(r.course_title),
      lectureId: r.id,
      lectureTitle: siteText(r.title),
      unlockedAt: r.unlock_at,
    }));
}

/** When an attention item is due: the instant it is sorted by (unknown dates last). */
function dueAt(item: TodayAttention): number {
  const at = (iso: string | null) =>
    iso === null ? Number.POSITIVE_INFINITY : Date.parse(iso) || Number.POSITIVE_INFINITY;
  switch (item.kind) {
    case 'access-ending':
      return at(item.endsAt);
    case 'payment-due':
      return at(item.expiresAt);
    case 'event-soon':
      return at(item.startsAt);
    case 'lecture-unlocked':
      // Already open: first.
      return Number.NEGATIVE_INFINITY;
  }
}

export function getToday(db: ReadableDB, now: Date): TodayData {
  const t = now.getTime();
  const attention = [
    ...lecturesUnlocked(db, t),
    ...paymentsDue(db, now),
    ...eventsSoon(db, t),
    ...accessEnding(db, t),
  ];
  // Stable: within one instant the kinds keep the order above.
  attention.sort((a, b) => {
    const x = dueAt(a);
    const y = dueAt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  });
  return { continueLearning: continueLearning(db, t), attention };
}
