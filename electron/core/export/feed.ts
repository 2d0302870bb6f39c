/**
 * The calendar subscription's events, read from the saved copy of every school: lecture unlocks
 * ahead, access ends, payment-code deadlines, the events the student registered for, and (if asked)
 * the plan's study blocks. Each has a UID from its school, kind and id (the same item is the same
 * event in every build, so a subscriber updates it; one gone from the build is gone from the
 * calendar). Consulting bookings are not in it: the school sends everyone's booked times, never
 * which are the student's.
 */
import type { Database } from 'better-sqlite3';
import type { CoursePlanView } from '../../common/plan-contract';
import { siteText } from '../../common/site-values';
import { localDay, localInstant } from '../../common/zoned-time';
import { prepared } from '../db/index';
import { inFourDigitYears } from './dates';
import { uuidV5, type CalendarEvent } from './ics';

/** Per kind, at most this many events (soonest first): a school's data is untrusted in size. */
export const FEED_ITEMS_PER_KIND = 500;
/** Study blocks are placed over the next two weeks, at 19:00 on each study day. */
export const STUDY_BLOCK_DAYS = 14;
export const STUDY_BLOCK_MINUTE = 19 * 60;

export type FeedLanguage = 'en' | 'zh-TW';

const WORDS = {
  en: {
    unlock: (lecture: string, course: string) => `Unlocks: ${lecture} (${course})`,
    accessEnd: (course: string) => `Access ends: ${course}`,
    accessEndText: 'Finish the course before then: Learning Desktop shows your plan.',
    payment: (tradeNo: string) => `Payment code expires (order ${tradeNo})`,
    paymentText: 'Pay before this time: Learning Desktop shows the payment details.',
    study: (course: string) => `Study: ${course}`,
    studyText: (minutes: number) => `${minutes} min to keep the pace that finishes in time.`,
    name: 'Learning Desktop',
  },
  'zh-TW': {
    unlock: (lecture: string, course: string) => `單元解鎖：${lecture}（${course}）`,
    accessEnd: (course: string) => `觀看期限到期：${course}`,
    accessEndText: '請在此之前完成課程：Learning Desktop 會顯示你的學習計畫。',
    payment: (tradeNo: string) => `繳費代碼到期（訂單 ${tradeNo}）`,
    paymentText: '請在此時間前繳費：Learning Desktop 會顯示繳費資訊。',
    study: (course: string) => `學習：${course}`,
    studyText: (minutes: number) => `${minutes} 分鐘，維持能如期完成的進度。`,
    name: 'Learning Desktop',
  },
} as const;

type Words = (typeof WORDS)[FeedLanguage];

export const feedName = (language: FeedLanguage) => WORDS[language].name;

/** A site's date as an instant a calendar can hold, or null. */
function instant(iso: unknown): Date | null {
  if (typeof iso !== 'string' || iso.length > 64) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) || !inFourDigitYears(d) ? null : d;
}

/** The UID of one item: school, kind and id; nothing readable about the student (RFC 7986 §5.3). */
export function feedUid(siteId: string, kind: string, id: string): string {
  const name = `feed\n${siteId}\n${kind}\n${id}`;
  let uid = uids.get(name);
  if (uid === undefined) {
    uid = `${uuidV5(name)}@learning-desktop`;
    if (uids.size >= UIDS_KEPT) uids.clear();
    uids.set(name, uid);
  }
  return uid;
}

/**
 * The UIDs made so far: a build makes the same thousand again, and each is a SHA-1 (bounded: a
 * school's ids are untrusted in number).
 */
const uids = new Map<string, string>();
const UIDS_KEPT = 20_000;

type Row = Record<string, unknown>;
const ms = (column: string) => `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)`;

/** The rows of one kind, of the schools in the list only. */
function rows(db: Database, sql: string, input: FeedInput): Row[] {
  // Compiled once per connection (db/statements.ts): a subscriber's refresh and every sync build
  // it.
  const all = prepared<{ now: number; limit: number }, Row>(db, sql).all({
    now: input.now,
    limit: FEED_ITEMS_PER_KIND,
  });
  return all.filter((r) => input.siteIds.has(String(r['site_id'])));
}

function unlocks(db: Database, input: FeedInput, w: Words): CalendarEvent[] {
  return rows(
    db,
    `SELECT l.site_id, l.id, l.title, c.title AS course, l.unlock_at FROM lectures l
       JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
      WHERE l.is_locked = 1 AND l.unlock_at IS NOT NULL AND ${ms('l.unlock_at')} > @now
        AND (c.has_lifetime_access = 1 OR c.expires_ms IS NULL OR c.expires_ms > @now)
      -- In the index's order (ISO text, the sites' own form): the walk stops at the limit instead of sorting all.
      ORDER BY l.unlock_at, l.site_id, l.id LIMIT @limit`,
    input,
  ).flatMap((r) => {
    const start = instant(r['unlock_at']);
    return start
      ? [
          {
            uid: feedUid(String(r['site_id']), 'unlock', String(r['id'])),
            start,
            summary: w.unlock(siteText(r['title']), siteText(r['course'])),
          },
        ]
      : [];
  });
}

function accessEnds(db: Database, input: FeedInput, w: Words): CalendarEvent[] {
  return rows(
    db,
    `SELECT c.site_id, c.id, c.title, c.expire_date FROM courses c
      WHERE c.has_lifetime_access = 0 AND c.expire_date IS NOT NULL AND c.expires_ms > @now
        AND c.completed_at IS NULL AND c.percent < 100
      ORDER BY c.expires_ms, c.site_id, c.id LIMIT @limit`,
    input,
  ).flatMap((r) => {
    const start = instant(r['expire_date']);
    return start
      ? [
          {
            uid: feedUid(String(r['site_id']), 'access-end', String(r['id'])),
            start,
            summary: w.accessEnd(siteText(r['title'])),
            description: w.accessEndText,
            alarms: [{ before: '-P1D', description: w.accessEnd(siteText(r['title'])) }],
          },
        ]
      : [];
  });
}

function payments(db: Database, input: FeedInput, w: Words): CalendarEvent[] {
  return rows(
    db,
    `SELECT p.site_id, p.id, p.trade_no, p.expired_at FROM payments p
      WHERE p.payment_state = 'not_paid' AND p.code_no IS NOT NULL AND p.expires_ms > @now
      ORDER BY p.expires_ms, p.site_id, p.id LIMIT @limit`,
    input,
  ).flatMap((r) => {
    const start = instant(r['expired_at']);
    // The code itself stays out: a calendar may be synced to a server the student does not control.
    return start
      ? [
          {
            uid: feedUid(String(r['site_id']), 'payment', String(r['id'])),
            start,
            summary: w.payment(siteText(r['trade_no'])),
            description: w.paymentText,
            alarms: [{ before: '-PT12H', description: w.payment(siteText(r['trade_no'])) }],
          },
        ]
      : [];
  });
}

function registrations(db: Database, input: FeedInput): CalendarEvent[] {
  return rows(
    db,
    `SELECT site_id, id, title, starts_at, ends_at, location FROM event_registrations
      WHERE ${ms('ends_at')} > @now ORDER BY ${ms('starts_at')}, site_id, id LIMIT @limit`,
    input,
  ).flatMap((r) => {
    const start = instant(r['starts_at']);
    const end = instant(r['ends_at']);
    if (!start) return [];
    const location = typeof r['location'] === 'string' ? siteText(r['location']) : null;
    return [
      {
        uid: feedUid(String(r['site_id']), 'event', String(r['id'])),
        start,
        ...(end && end.getTime() >= start.getTime() ? { end } : {}),
        summary: siteText(r['title']),
        ...(location ? { location } : {}),
        busy: true,
        alarms: [{ before: '-PT1H', description: siteText(r['title']) }],
      },
    ];
  });
}

/**
 * The plan's study blocks: each course's minutes per study day, at 19:00 local, on its study days
 * ahead.
 */
function studyBlocks(
  plans: readonly CoursePlanView[],
  studyDays: readonly number[],
  now: number,
  timeZone: string,
  w: Words,
): CalendarEvent[] {
  const days = studyDays.length === 0 ? [1, 2, 3, 4, 5, 6, 7] : studyDays;
  const today = localDay(now, timeZone);
  const out: CalendarEvent[] = [];
  for (const c of plans.slice(0, 20)) {
    const minutes = c.plan.pace?.minutesPerStudyDay ?? 0;
    const end = instant(c.expireDate)?.getTime() ?? 0;
    if (minutes <= 0 || c.plan.status === 'ended' || c.plan.status === 'done') continue;
    for (let d = today; d < today + STUDY_BLOCK_DAYS; d++) {
      if (!days.includes(((((d + 3) % 7) + 7) % 7) + 1)) continue;
      const start = localInstant(d, STUDY_BLOCK_MINUTE, timeZone);
      if (start <= now || start >= end) continue;
      out.push({
        uid: feedUid(c.siteId, 'study', `${c.courseId}\n${d}`),
        start: new Date(start),
        end: new Date(start + Math.min(minutes, 6 * 60) * 60_000),
        summary: w.study(c.title),
        description: w.studyText(minutes),
        busy: true,
      });
    }
  }
  return out;
}

export interface FeedInput {
  readonly now: number;
  readonly timeZone: string;
  readonly language: FeedLanguage;
  /** The plans, when study blocks are asked for (null: none). */
  readonly plans: {
    readonly courses: readonly CoursePlanView[];
    readonly studyDays: readonly number[];
  } | null;
  /** The schools in the list (a row of one removed a moment ago is left out). */
  readonly siteIds: ReadonlySet<string>;
}

/** Every event of the feed, without revision numbers (calendar-feed.ts keeps those). */
export function feedEvents(db: Database, input: FeedInput): CalendarEvent[] {
  const w = WORDS[input.language];
  const all = [
    ...unlocks(db, input, w),
    ...accessEnds(db, input, w),
    ...payments(db, input, w),
    ...registrations(db, input),
    ...(input.plans
      ? studyBlocks(
          input.plans.courses.filter((c) => input.siteIds.has(c.siteId)),
          input.plans.studyDays,
          input.now,
          input.timeZone,
          w,
        )
      : []),
  ];
  return all;
}
