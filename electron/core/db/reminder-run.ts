/**
 * Reminders by the student's rules: for each kind and school, on or off and one or more lead times
 * (1 hour ... 1 week, or their own), quiet hours, and snoozes. Decided over the saved copy and
 * remembered in it (reminder_marks, 012; reminder_snoozes, 030), in one transaction, so each item
 * is reminded of once per lead time across restarts:
 * - a lead time whose moment came while the app was closed fires at the next run, marked `late`
 *   (the text says so); several passed at once fire as one (the nearest), the others are marked;
 * - an item that no longer matters is never read (a code paid, an event begun, an access ended):
 *   dropped;
 * - a moment inside quiet hours waits for their end; a run inside them fires nothing and marks
 *   nothing;
 * - a snoozed item waits for its time, then is reminded of once more if it still matters.
 * A site's first run after its first sync is its baseline: what was already due is marked, never announced.
 * Marks are keyed by the lead's label ('30d', '7d', '1d', '1h'; 'open' for a lecture): the marks the fixed
 * thresholds wrote before rules existed are the same keys, so nothing is said twice across the upgrade.
 */
import type { Database } from 'better-sqlite3';
import { localDay, localInstant, minuteOfDay } from '../../common/zoned-time';
import { subjectsAhead, type ReminderSubject, type SubjectKind } from './reminder-subjects';
import { prepared } from './statements';

export type RuleKind = SubjectKind;
export const RULE_KINDS: readonly RuleKind[] = [
  'event-starting',
  'payment-due',
  'access-ending',
  'lecture-unlocked',
  'plan-behind',
];

export interface RunRule {
  readonly enabled: boolean;
  readonly leadMinutes: readonly number[];
}

export interface RuleRunInput {
  readonly now: number;
  readonly syncedSiteId: string | null;
  /** Each school's rule per kind (every school in the list has all kinds). */
  readonly rules: Readonly<Record<string, Readonly<Partial<Record<RuleKind, RunRule>>>>>;
  readonly quietHours: { readonly start: string; readonly end: string } | null;
  readonly timeZone: string;
  /** Courses behind on their plan this week (the main thread plans them): keyed by week. */
  readonly behind: readonly ReminderSubject[];
}

export interface RuleReminderGroup {
  readonly kind: RuleKind;
  readonly count: number;
  readonly siteId: string;
  readonly title: string;
  readonly courseTitle: string | null;
  readonly dueAt: string;
  readonly leftMs: number;
  /** Its moment passed while the app was not running (by more than LATE_MS). */
  readonly late: boolean;
  /** A reminder the student put off, now due again. */
  readonly snoozed: boolean;
  /** The items it stands for (at most GROUP_ITEMS), for a snooze from the notification. */
  readonly items: readonly { readonly siteId: string; readonly subjectId: string }[];
}

export const RULE_SUBJECTS_PER_RUN = 200;
export const GROUP_ITEMS = 20;
/**
 * The scheduler runs every 5 minutes: a reminder later than this was missed while the app was
 * closed.
 */
export const LATE_MS = 15 * 60_000;

/**
 * A lead time's key in reminder_marks: the largest whole unit ('7d', '12h', '90m'); a lecture's
 * moment 'open'.
 */
export function leadLabel(kind: RuleKind, minutes: number): string {
  if (kind === 'lecture-unlocked') return 'open';
  if (kind === 'plan-behind') return 'week';
  if (minutes % 1440 === 0 && minutes > 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0 && minutes > 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** When quiet hours that hold `at` end (the instant), or null when `at` is outside them. */
export function quietUntil(
  at: number,
  quiet: RuleRunInput['quietHours'],
  timeZone: string,
): number | null {
  if (!quiet || quiet.start === quiet.end) return null;
  const day = localDay(at, timeZone);
  const minute = minuteOfDay(at, timeZone);
  const [start, end] = [minutesOf(quiet.start), minutesOf(quiet.end)];
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const endDay = start < end || minute < end ? day : day + 1;
  return localInstant(endDay, end, timeZone);
}

export interface Due {
  readonly subject: ReminderSubject;
  /** The nearest lead time passed, and when it fell due (after any quiet hours). */
  readonly fireAt: number;
  readonly labels: readonly string[];
}

/** The unmarked lead times of one item that have come, nearest last; null when none has. */
export function dueLeads(
  db: Database,
  kind: RuleKind,
  s: ReminderSubject,
  leads: readonly number[],
  input: RuleRunInput,
): Due | null {
  const marked = new Set(
    prepared<{ site: string; kind: string; id: string; due: string }, { threshold: string }>(
      db,
      `SELECT threshold FROM reminder_marks
        WHERE site_id = @site AND kind = @kind AND subject_id = @id AND due_at = @due`,
    )
      .all({ site: s.siteId, kind, id: s.id, due: s.dueAt })
      .map((r) => r.threshold),
  );
  const moment = s.dueMs ?? input.now;
  const passed = leads
    .map((m) => ({ label: leadLabel(kind, m), at: moment - m * 60_000 }))
    .filter((l) => l.at <= input.now && !marked.has(l.label));
  if (passed.length === 0) return null;
  const nearest = passed.reduce((a, b) => (b.at > a.at ? b : a));
  const fireAt = quietUntil(nearest.at, input.quietHours, input.timeZone) ?? nearest.at;
  return { subject: s, fireAt, labels: passed.map((l) => l.label) };
}

export function subjectsOf(db: Database, kind: RuleKind, input: RuleRunInput, maxLead: number) {
  if (kind === 'plan-behind') return input.behind.slice(0, RULE_SUBJECTS_PER_RUN);
  // Lectures: opened within the last week at most (the marks keep older ones from coming back
  // anyway).
  const within = kind === 'lecture-unlocked' ? 7 * 86_400_000 : maxLead * 60_000;
  return subjectsAhead(db, kind, input.now, within, RULE_SUBJECTS_PER_RUN);
}

export type Mark = (s: ReminderSubject, kind: RuleKind, label: string, announced: boolean) => void;

export function marker(db: Database, at: string): Mark {
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO reminder_marks (site_id, kind, subject_id, threshold, due_at, marked_at, announced)
     VALUES (@site, @kind, @id, @threshold, @due, @at, @announced) ON CONFLICT DO NOTHING`,
  );
  return (s, kind, label, announced) =>
    insert.run({
      site: s.siteId,
      kind,
      id: s.id,
      threshold: label,
      due: s.dueAt,
      at,
      announced: announced ? 1 : 0,
    });
}

/** The sites past their baseline, with it (ms); the one synced now gets its baseline here. */
export function baselines(db: Database, input: RuleRunInput, at: string) {
  let fresh: string | null = null;
  if (input.syncedSiteId !== null) {
    const added = prepared<{ siteId: string; at: string }>(
      db,
      `INSERT INTO reminder_sites (site_id, baseline_at) SELECT @siteId, @at
        WHERE EXISTS (SELECT 1 FROM sites WHERE id = @siteId) ON CONFLICT DO NOTHING`,
    ).run({ siteId: input.syncedSiteId, at }).changes;
    if (added === 1) fresh = input.syncedSiteId;
  }
  const rows = prepared<object, { site_id: string; baseline_at: string }>(
    db,
    'SELECT site_id, baseline_at FROM reminder_sites',
  ).all({});
  return { fresh, at: new Map(rows.map((r) => [r.site_id, Date.parse(r.baseline_at)])) };
}

export function group(
  kind: RuleKind,
  due: readonly Due[],
  now: number,
  flags: { snoozed: boolean; lastRun: number | null },
): RuleReminderGroup | null {
  const first = due[0];
  if (!first) return null;
  const s = first.subject;
  return {
    kind,
    count: due.length,
    siteId: s.siteId,
    title: s.title,
    courseTitle: s.courseTitle,
    dueAt: s.dueAt,
    leftMs:
      kind === 'lecture-unlocked' || kind === 'plan-behind'
        ? 0
        : Math.max(0, (s.dueMs ?? now) - now),
    // Late: its moment came after the last run and long before this one, so no run was there to say
    // it.
    late:
      !flags.snoozed &&
      due.some(
        (d) => now - d.fireAt > LATE_MS && (flags.lastRun === null || d.fireAt > flags.lastRun),
      ),
    snoozed: flags.snoozed,
    items: due
      .slice(0, GROUP_ITEMS)
      .map((d) => ({ siteId: d.subject.siteId, subjectId: d.subject.id })),
  };
}
