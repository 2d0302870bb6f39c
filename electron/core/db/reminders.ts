/**
 * Reminders: which ones are due, decided over the saved copy and remembered in it (migration 012),
 * so each is said once. Three kinds:
 * - access-ending: an unfinished course whose access ends within 30, 7 or 1 days; each threshold
 *   once per course (and per end date: access renewed to a new date is reminded of again);
 * - lecture-unlocked: a lecture whose unlock time passed after the site's first sync, or one this
 *   app saw locked that the site now sends open (opened early, or without a date);
 * - event-starting: an event the student registered for starts within 1 day, then within 1 hour.
 *
 * A site's first run (after its first sync) is its baseline: whatever is due then is what the
 * student already had, so it is marked and never announced. A kind switched off is marked all the
 * same, so switching it on later does not announce old news. Each run returns at most one group per
 * kind ("3 courses end soon"), whatever the number of sites or subjects, and reads at most
 * REMINDER_SUBJECTS_PER_RUN subjects a kind (the rest wait for the next run). Everything happens in
 * one transaction: a crash after it cannot announce twice, a crash before announces nothing.
 *
 * Pure over the database and the `now` it is given (tests move the clock; the app passes its own).
 */
import { prepared } from './statements';
import type { WritableDB } from './handles';

export type ReminderKind = 'access-ending' | 'lecture-unlocked' | 'event-starting';
export const REMINDER_KINDS: readonly ReminderKind[] = [
  'event-starting',
  'access-ending',
  'lecture-unlocked',
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Largest first: a subject's crossed threshold is the smallest one its time left fits in. */
export const ACCESS_THRESHOLDS = [
  { label: '30d', ms: 30 * DAY },
  { label: '7d', ms: 7 * DAY },
  { label: '1d', ms: DAY },
] as const;
export const EVENT_THRESHOLDS = [
  { label: '1d', ms: DAY },
  { label: '1h', ms: HOUR },
] as const;
/** A lecture has one moment: it opened. */
const UNLOCKED = 'open';
/**
 * The lectures this app saw locked (a mark of their own kind): one the site later sends open has
 * opened.
 */
const SEEN_LOCKED = 'lecture-locked';

/** The cap on one run's work: subjects read (and marked) per kind. */
export const REMINDER_SUBJECTS_PER_RUN = 200;

export interface ReminderGroup {
  readonly kind: ReminderKind;
  /** How many subjects this one notification stands for. */
  readonly count: number;
  /** The most pressing subject: its site, its title (the site's text), and what it is about. */
  readonly siteId: string;
  readonly title: string;
  /** lecture-unlocked: the lecture's course. */
  readonly courseTitle: string | null;
  /** The instant it is about: the access end, the event start, the unlock. */
  readonly dueAt: string;
  /**
   * access-ending and event-starting: milliseconds from now to dueAt (> 0). lecture-unlocked: 0.
   */
  readonly leftMs: number;
}

export interface ReminderRunInput {
  readonly now: number;
  /**
   * The site whose sync just committed (its first one sets its baseline), or null for a run on the
   * timer.
   */
  readonly syncedSiteId: string | null;
  readonly enabled: Readonly<Record<ReminderKind, boolean>>;
}

interface Subject {
  readonly site_id: string;
  readonly id: string;
  readonly title: string;
  readonly course_title: string | null;
  readonly due_at: string;
  readonly due_ms: number;
  readonly threshold: string;
  readonly baseline: number;
}

/** An ISO date as epoch ms in SQL; an unreadable one is NULL (never matched, never thrown). */
const ms = (column: string) => `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)`;

/** The smallest threshold that `left` (a SQL expression) fits in, as a SQL CASE over the labels. */
function crossed(left: string, thresholds: readonly { label: string; ms: number }[]): string {
  const smallestFirst = [...thresholds].reverse();
  return `CASE ${smallestFirst.map((t) => `WHEN ${left} <= ${t.ms} THEN '${t.label}'`).join(' ')} END`;
}

const UNMARKED = (kind: ReminderKind, subject: string, threshold: string, due: string) =>
  `NOT EXISTS (SELECT 1 FROM reminder_marks m WHERE m.site_id = s.site_id AND m.kind = '${kind}' AND m.subject_id = ${subject}
     AND m.threshold = ${threshold} AND m.due_at = ${due})`;

/**
 * Candidates: subjects of baselined sites past a threshold they were not marked for. `baseline` is
 * 1 for the site being baselined now.
 */
const QUERIES: Record<ReminderKind, string> = {
  'access-ending': `
    SELECT s.site_id, s.id, s.title, NULL AS course_title, s.expire_date AS due_at, s.expires_ms AS due_ms,
           ${crossed('s.expires_ms - @now', ACCESS_THRESHOLDS)} AS threshold, r.site_id = @baselineSite AS baseline
      FROM courses s JOIN reminder_sites r ON r.site_id = s.site_id
     WHERE s.has_lifetime_access = 0 AND s.expire_date IS NOT NULL AND s.expires_ms > @now
       AND s.expires_ms - @now <= ${ACCESS_THRESHOLDS[0].ms}
       AND s.completed_at IS NULL AND s.percent < 100
       AND ${UNMARKED('access-ending', 's.id', crossed('s.expires_ms - @now', ACCESS_THRESHOLDS), 's.expire_date')}
     ORDER BY s.expires_ms, s.site_id, s.position LIMIT @limit`,
  'event-starting': `
    SELECT s.site_id, s.id, s.title, NULL AS course_title, s.starts_at AS due_at, ${ms('s.starts_at')} AS due_ms,
           ${crossed(`${ms('s.starts_at')} - @now`, EVENT_THRESHOLDS)} AS threshold, r.site_id = @baselineSite AS baseline
      FROM event_registrations s JOIN reminder_sites r ON r.site_id = s.site_id
     WHERE ${ms('s.starts_at')} > @now AND ${ms('s.starts_at')} - @now <= ${EVENT_THRESHOLDS[0].ms}
       AND ${UNMARKED('event-starting', 's.id', crossed(`${ms('s.starts_at')} - @now`, EVENT_THRESHOLDS), 's.starts_at')}
     ORDER BY ${ms('s.starts_at')}, s.site_id, s.id LIMIT @limit`,
  // Opened since the site's baseline (the student had what opened before it): its unlock time
  // passed, or the site now says open a lecture this app saw locked (a school may open one early,
  // or drop its date). Only in a course whose access is open. A lecture without a date is keyed on
  // '' as its moment.
  'lecture-unlocked': `
    SELECT s.site_id, s.id, s.title, c.title AS course_title, coalesce(s.unlock_at, '') AS due_at, ${ms('s.unlock_at')} AS due_ms,
           '${UNLOCKED}' AS threshold, r.site_id = @baselineSite AS baseline
      FROM lectures s JOIN reminder_sites r ON r.site_id = s.site_id
      JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
     -- The few candidates first (a date passed; a lecture seen locked now open), by rowid: the checks below then run on
     -- them only, not once for every lecture of every school.
     WHERE s.rowid IN (SELECT l.rowid FROM lectures l WHERE l.unlock_at IS NOT NULL AND ${ms('l.unlock_at')} <= @now
                       UNION SELECT l.rowid FROM reminder_marks k JOIN lectures l ON l.site_id = k.site_id AND l.id = k.subject_id
                        WHERE k.kind = '${SEEN_LOCKED}' AND l.is_locked = 0)
       AND ((s.unlock_at IS NOT NULL AND ${ms('s.unlock_at')} <= @now AND ${ms('s.unlock_at')} > ${ms('r.baseline_at')})
            OR (s.is_locked = 0 AND EXISTS (SELECT 1 FROM reminder_marks k WHERE k.site_id = s.site_id AND k.kind = '${SEEN_LOCKED}'
                                               AND k.subject_id = s.id)))
       AND (c.has_lifetime_access = 1 OR c.expires_ms IS NULL OR c.expires_ms > @now)
       AND ${UNMARKED('lecture-unlocked', 's.id', `'${UNLOCKED}'`, "coalesce(s.unlock_at, '')")}
     ORDER BY coalesce(${ms('s.unlock_at')}, @now) DESC, s.site_id, s.id LIMIT @limit`,
};

/**
 * A threshold crossed marks the larger ones too: a course first seen 5 days before its end is not
 * told "30 days" later.
 */
function thresholdsFrom(kind: ReminderKind, label: string): string[] {
  const list: readonly { label: string }[] =
    kind === 'access-ending'
      ? ACCESS_THRESHOLDS
      : kind === 'event-starting'
        ? EVENT_THRESHOLDS
        : [];
  const at = list.findIndex((t) => t.label === label);
  return at < 0 ? [label] : list.slice(0, at + 1).map((t) => t.label);
}

export function decideReminders(db: WritableDB, input: ReminderRunInput): ReminderGroup[] {
  const { now } = input;
  const markedAt = new Date(now).toISOString();
  return db.transaction((): ReminderGroup[] => {
    // The first run after a site's first sync sets its baseline, and is silent for that site.
    const baselineSite =
      input.syncedSiteId !== null &&
      prepared<{ siteId: string; at: string }>(
        db,
        'INSERT INTO reminder_sites (site_id, baseline_at) SELECT @siteId, @at WHERE EXISTS (SELECT 1 FROM sites WHERE id = @siteId) ON CONFLICT DO NOTHING',
      ).run({ siteId: input.syncedSiteId, at: markedAt }).changes === 1
        ? input.syncedSiteId
        : null;
    const mark = prepared<{
      siteId: string;
      kind: string;
      subject: string;
      threshold: string;
      due: string;
      at: string;
      announced: number;
    }>(
      db,
      `INSERT INTO reminder_marks (site_id, kind, subject_id, threshold, due_at, marked_at, announced)
       VALUES (@siteId, @kind, @subject, @threshold, @due, @at, @announced) ON CONFLICT DO NOTHING`,
    );
    const groups: ReminderGroup[] = [];
    for (const kind of REMINDER_KINDS) {
      const subjects = prepared<
        { now: number; baselineSite: string | null; limit: number },
        Subject
      >(db, QUERIES[kind]).all({
        now,
        baselineSite,
        limit: REMINDER_SUBJECTS_PER_RUN,
      });
      const announced: Subject[] = [];
      for (const s of subjects) {
        const announce = input.enabled[kind] && s.baseline !== 1;
        for (const threshold of thresholdsFrom(kind, s.threshold))
          mark.run({
            siteId: s.site_id,
            kind,
            subject: s.id,
            threshold,
            due: s.due_at,
            at: markedAt,
            announced: announce ? 1 : 0,
          });
        if (announce) announced.push(s);
      }
      const first = announced[0];
      if (!first) continue;
      groups.push({
        kind,
        count: announced.length,
        siteId: first.site_id,
        title: first.title,
        courseTitle: first.course_title,
        dueAt: first.due_at,
        leftMs: kind === 'lecture-unlocked' ? 0 : Math.max(0, first.due_ms - now),
      });
    }
    // After the candidates: what is locked now is what a later run compares with.
    prepared<{ at: string }>(
      db,
      `INSERT INTO reminder_marks (site_id, kind, subject_id, threshold, due_at, marked_at, announced)
       SELECT l.site_id, '${SEEN_LOCKED}', l.id, 'seen', '', @at, 0 FROM lectures l JOIN reminder_sites r ON r.site_id = l.site_id
        WHERE l.is_locked = 1 ON CONFLICT DO NOTHING`,
    ).run({ at: markedAt });
    return groups;
  })();
}
