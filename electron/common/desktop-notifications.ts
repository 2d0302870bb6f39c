/**
 * OS notifications: what the core asks a host to show, and its words in both languages. The
 * Electron host shows it with `Notification`, the browser host's page with the Web Notifications
 * API; both take the text from here so they say the same. Nothing here ever carries a secret: no
 * token, no payment code or account number, only the site's name, a count, a notice's own title and
 * a number of hours.
 */

import { digestText, type DigestSchool } from './digest-text';

export type { DigestItem, DigestSchool } from './digest-text';

export type DesktopNotificationKind =
  | 'payment-due'
  | 'new-notices'
  | 'sign-in'
  | 'plan-behind'
  | 'weekly-digest'
  | ReminderNotificationKind;

/**
 * Reminders (electron/core/db/reminders.ts): each one notification per run, standing for `count`
 * subjects.
 */
export type ReminderNotificationKind = 'access-ending' | 'lecture-unlocked' | 'event-starting';
export const REMINDER_NOTIFICATION_KINDS: readonly ReminderNotificationKind[] = [
  'access-ending',
  'lecture-unlocked',
  'event-starting',
];

/**
 * The most pressing subject of a reminder: its title and course (the site's text, shown in the app
 * anyway) and the time left.
 */
export interface ReminderSubject {
  readonly title: string;
  /** lecture-unlocked: the lecture's course. */
  readonly courseTitle: string | null;
  /** access-ending, event-starting: whole minutes until the end or the start (at least 1). */
  readonly minutesLeft: number;
}

export interface DesktopNotification {
  /** Stable per event, so a host can replace instead of stack (Web Notifications `tag`). */
  readonly id: string;
  readonly kind: DesktopNotificationKind;
  readonly siteId: string;
  readonly siteLabel: string;
  /** payment-due: whole hours left (at least 1; the soonest code's). new-notices: how many. */
  readonly count: number;
  /**
   * payment-due: how many codes this one notification stands for, when more than one (they are
   * grouped).
   */
  readonly codes?: number;
  /** new-notices with exactly one notice: its title (the site's text, shown in the app anyway). */
  readonly noticeTitle: string | null;
  /**
   * Reminders: the subject named (the soonest one); `count` says how many the notification stands
   * for.
   */
  readonly reminder?: ReminderSubject;
  /**
   * weekly-digest: the schools named, most changes first (`count` says how many schools changed).
   */
  readonly digest?: readonly DigestSchool[];
  /** The screen a click opens. */
  readonly screen: 'billing' | 'notifications' | 'settings' | 'today';
  /** A reminder whose moment passed while the app was closed: the text says it comes late. */
  readonly late?: boolean;
  /** A reminder the student put off, come round again. */
  readonly snoozed?: boolean;
  /** What a "Snooze" button on the notification puts off (reminders by rule only). */
  readonly snooze?: {
    readonly kind: string;
    readonly items: readonly { readonly siteId: string; readonly subjectId: string }[];
  };
}

/** Minutes as the largest unit that reads naturally: 45 minutes, 23 hours, 7 days. */
function timeLeft(minutes: number, language: NotificationLanguage): string {
  const m = Math.max(1, Math.round(minutes));
  const [n, unit] =
    m < 60
      ? [m, 'minute']
      : m < 48 * 60
        ? [Math.round(m / 60), 'hour']
        : [Math.round(m / (24 * 60)), 'day'];
  if (language === 'zh-TW')
    return `${n} ${unit === 'minute' ? '分鐘' : unit === 'hour' ? '小時' : '天'}`;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

const subjectOf = (n: DesktopNotification): ReminderSubject =>
  n.reminder ?? { title: '', courseTitle: null, minutesLeft: 1 };

export type NotificationLanguage = 'en' | 'zh-TW';

const TEXT: Record<
  NotificationLanguage,
  Record<DesktopNotificationKind, (n: DesktopNotification) => { title: string; body: string }>
> = {
  en: {
    'payment-due': (n) =>
      (n.codes ?? 1) > 1
        ? {
            title: `${n.codes} payment codes expire soon`,
            body: `${n.codes} of your ATM or convenience-store payments at ${n.siteLabel} expire soon, the first in ${n.count} ${n.count === 1 ? 'hour' : 'hours'}. Open Purchases for the payment details.`,
          }
        : {
            title: 'A payment code expires soon',
            body: `Your ATM or convenience-store payment at ${n.siteLabel} expires in ${n.count} ${n.count === 1 ? 'hour' : 'hours'}. Open Purchases for the payment details.`,
          },
    'new-notices': (n) => ({
      title:
        n.count === 1
          ? `New notice from ${n.siteLabel}`
          : `${n.count} new notices from ${n.siteLabel}`,
      body: n.count === 1 && n.noticeTitle ? n.noticeTitle : 'Open Notifications to read them.',
    }),
    'sign-in': (n) => ({
      title: `Sign in to ${n.siteLabel} again`,
      body: 'Your sign-in has ended, so new data cannot be fetched. What you already have stays readable.',
    }),
    'access-ending': (n) => {
      const s = subjectOf(n);
      const left = timeLeft(s.minutesLeft, 'en');
      return n.count > 1
        ? {
            title: `${n.count} courses end soon`,
            body: `The first, “${s.title}” at ${n.siteLabel}, ends in ${left}. Open Today to see them.`,
          }
        : {
            title: 'Course access ends soon',
            body: `Your access to “${s.title}” at ${n.siteLabel} ends in ${left}. Finish it before then.`,
          };
    },
    'lecture-unlocked': (n) => {
      const s = subjectOf(n);
      const where = s.courseTitle ? ` in “${s.courseTitle}”` : '';
      return n.count > 1
        ? {
            title: `${n.count} lectures unlocked`,
            body: `Among them “${s.title}”${where} at ${n.siteLabel}. Open Today to see them.`,
          }
        : {
            title: 'A lecture is unlocked',
            body: `“${s.title}”${where} at ${n.siteLabel} is ready to watch.`,
          };
    },
    'weekly-digest': (n) => digestText(n.digest ?? [], n.count, 'en'),
    'plan-behind': (n) => {
      const s = subjectOf(n);
      return n.count > 1
        ? {
            title: `Behind on ${n.count} courses this week`,
            body: `Among them “${s.title}” at ${n.siteLabel}. Open Today to see your plan.`,
          }
        : {
            title: 'Behind on your plan this week',
            body: `“${s.title}” at ${n.siteLabel} is behind this week's pace. Open Today to see your plan.`,
          };
    },
    'event-starting': (n) => {
      const s = subjectOf(n);
      const left = timeLeft(s.minutesLeft, 'en');
      return n.count > 1
        ? {
            title: `${n.count} events start soon`,
            body: `The first, “${s.title}” at ${n.siteLabel}, starts in ${left}.`,
          }
        : {
            title: 'An event starts soon',
            body: `“${s.title}” at ${n.siteLabel} starts in ${left}.`,
          };
    },
  },
  'zh-TW': {
    'payment-due': (n) =>
      (n.codes ?? 1) > 1
        ? {
            title: `${n.codes} 個繳費代碼即將到期`,
            body: `你在 ${n.siteLabel} 有 ${n.codes} 筆 ATM 或超商繳費即將到期，最早的將在 ${n.count} 小時內到期。請到「購買紀錄」查看繳費資訊。`,
          }
        : {
            title: '繳費代碼即將到期',
            body: `你在 ${n.siteLabel} 的 ATM 或超商繳費將在 ${n.count} 小時內到期。請到「購買紀錄」查看繳費資訊。`,
          },
    'new-notices': (n) => ({
      title:
        n.count === 1 ? `${n.siteLabel} 有一則新通知` : `${n.siteLabel} 有 ${n.count} 則新通知`,
      body: n.count === 1 && n.noticeTitle ? n.noticeTitle : '打開「通知」查看。',
    }),
    'sign-in': (n) => ({
      title: `請重新登入 ${n.siteLabel}`,
      body: '你的登入已失效，無法取得新資料。已下載的內容仍可閱讀。',
    }),
    'access-ending': (n) => {
      const s = subjectOf(n);
      const left = timeLeft(s.minutesLeft, 'zh-TW');
      return n.count > 1
        ? {
            title: `${n.count} 門課程即將到期`,
            body: `最早的是 ${n.siteLabel} 的「${s.title}」，將在 ${left}後到期。打開「今天」查看。`,
          }
        : {
            title: '課程觀看期限快到了',
            body: `你在 ${n.siteLabel} 的「${s.title}」將在 ${left}後到期，請把握時間完成。`,
          };
    },
    'lecture-unlocked': (n) => {
      const s = subjectOf(n);
      const course = s.courseTitle ? `「${s.courseTitle}」的` : '';
      return n.count > 1
        ? {
            title: `${n.count} 個單元已解鎖`,
            body: `包括 ${n.siteLabel} ${course}「${s.title}」。打開「今天」查看。`,
          }
        : { title: '有單元解鎖了', body: `${n.siteLabel} ${course}「${s.title}」已經可以觀看。` };
    },
    'weekly-digest': (n) => digestText(n.digest ?? [], n.count, 'zh-TW'),
    'plan-behind': (n) => {
      const s = subjectOf(n);
      return n.count > 1
        ? {
            title: `本週有 ${n.count} 門課程進度落後`,
            body: `包括 ${n.siteLabel} 的「${s.title}」。打開「今天」查看學習計畫。`,
          }
        : {
            title: '本週學習進度落後',
            body: `${n.siteLabel} 的「${s.title}」本週進度落後。打開「今天」查看學習計畫。`,
          };
    },
    'event-starting': (n) => {
      const s = subjectOf(n);
      const left = timeLeft(s.minutesLeft, 'zh-TW');
      return n.count > 1
        ? {
            title: `${n.count} 場活動即將開始`,
            body: `最早的是 ${n.siteLabel} 的「${s.title}」，將在 ${left}後開始。`,
          }
        : { title: '活動即將開始', body: `${n.siteLabel} 的「${s.title}」將在 ${left}後開始。` };
    },
  },
};

/**
 * A language tag (`zh-TW`, `zh-Hant-TW`, `en-US`, …) to one of the two the app speaks: any Chinese
 * is zh-TW.
 */
export function notificationLanguage(tag: string): NotificationLanguage {
  return /^zh\b/i.test(tag) ? 'zh-TW' : 'en';
}

/** Said after the body of a reminder that comes late, or again after a snooze. */
const LATE: Record<NotificationLanguage, string> = {
  en: 'This reminder comes late: the app was not running at its time.',
  'zh-TW': '這則提醒晚到了：提醒時間時應用程式沒有開著。',
};
const SNOOZED: Record<NotificationLanguage, string> = {
  en: 'Reminding you again, as you asked.',
  'zh-TW': '依你的要求再次提醒。',
};

export function notificationText(
  n: DesktopNotification,
  language: NotificationLanguage,
): { readonly title: string; readonly body: string } {
  const text = TEXT[language][n.kind](n);
  const after = n.late ? LATE[language] : n.snoozed ? SNOOZED[language] : null;
  return after === null
    ? text
    : { ...text, body: `${text.body}${language === 'zh-TW' ? '' : ' '}${after}` };
}

/**
 * The snooze buttons a notification offers (Electron on macOS shows them; elsewhere Today has
 * them).
 */
export const SNOOZE_ACTIONS: Record<NotificationLanguage, readonly [string, string]> = {
  en: ['Snooze 1 hour', 'Tomorrow morning'],
  'zh-TW': ['1 小時後再提醒', '明天早上再提醒'],
};

/** Both languages say every kind (the i18n rule: en and zh-TW have the same keys). */
export const NOTIFICATION_TEXT_KINDS: Readonly<
  Record<NotificationLanguage, readonly DesktopNotificationKind[]>
> = {
  en: Object.keys(TEXT.en) as DesktopNotificationKind[],
  'zh-TW': Object.keys(TEXT['zh-TW']) as DesktopNotificationKind[],
};
