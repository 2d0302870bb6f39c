/**
 * Reminders as OS notifications: the database decides which are due and remembers them
 * (db/reminders.ts, run on the writer's thread after each sync and on the scheduler's timer); this
 * turns its groups into the notifications the hosts show (the Electron host with `Notification`,
 * the browser host's page with Web Notifications), one per kind.
 */
import type { DesktopNotification } from '../../common/desktop-notifications';
import type { Settings } from '../../common/view-models';
import type { ReminderGroup, ReminderKind } from '../db/index';

export type ReminderSettings = Pick<
  Settings,
  'remindAccessEnding' | 'remindLectureUnlocked' | 'remindEventStarting'
>;

/** Settings' switches, by kind. */
export function enabledReminders(settings: ReminderSettings): Record<ReminderKind, boolean> {
  return {
    'access-ending': settings.remindAccessEnding,
    'lecture-unlocked': settings.remindLectureUnlocked,
    'event-starting': settings.remindEventStarting,
  };
}

/**
 * A site's title as a notification shows it: at most this many characters (a hostile site's
 * megabyte title is not).
 */
export const REMINDER_TITLE_CHARS = 100;

function clip(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= REMINDER_TITLE_CHARS
    ? chars.join('')
    : `${chars.slice(0, REMINDER_TITLE_CHARS - 1).join('')}…`;
}

/** One notification per group; a click opens Today, where every school's reminders are listed. */
export function reminderNotifications(
  groups: readonly ReminderGroup[],
  siteLabel: (siteId: string) => string,
  now: number,
): DesktopNotification[] {
  return groups.map((g) => ({
    // Stable per run and kind: a host replaces rather than stacks a repeat (Web Notifications
    // `tag`).
    id: `${g.kind}:${g.siteId}:${now}`,
    kind: g.kind,
    siteId: g.siteId,
    siteLabel: siteLabel(g.siteId),
    count: g.count,
    noticeTitle: null,
    reminder: {
      title: clip(g.title),
      courseTitle: g.courseTitle === null ? null : clip(g.courseTitle),
      minutesLeft: Math.max(1, Math.round(g.leftMs / 60_000)),
    },
    screen: 'today',
  }));
}
