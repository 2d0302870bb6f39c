import { describe, expect, it } from 'vitest';
import { notificationText } from '../../../electron/common/desktop-notifications';
import type { ReminderGroup } from '../../../electron/core/db/reminders';
import {
  enabledReminders,
  REMINDER_TITLE_CHARS,
  reminderNotifications,
} from '../../../electron/core/desktop/reminders';

const NOW = Date.parse('2026-11-25T08:00:00Z');
const label = (siteId: string) => (siteId === 'demo' ? 'Demo School' : siteId);
const group = (over: Partial<ReminderGroup>): ReminderGroup => ({
  kind: 'access-ending',
  count: 1,
  siteId: 'demo',
  title: 'UX Writing',
  courseTitle: null,
  dueAt: '2026-11-28T08:00:00.000Z',
  leftMs: 3 * 86_400_000,
  ...over,
});
const text = (g: ReminderGroup, language: 'en' | 'zh-TW' = 'en') =>
  notificationText(reminderNotifications([g], label, NOW)[0]!, language);

describe('reminders as notifications', () => {
  it('one notification per group, leading to Today, named by the soonest subject and its school', () => {
    const [n] = reminderNotifications([group({ count: 3 })], label, NOW);
    expect(n).toMatchObject({
      kind: 'access-ending',
      count: 3,
      siteId: 'demo',
      siteLabel: 'Demo School',
      screen: 'today',
    });
    expect(n!.reminder).toEqual({
      title: 'UX Writing',
      courseTitle: null,
      minutesLeft: 3 * 24 * 60,
    });
  });

  it('grouped: "3 courses end soon", in both languages', () => {
    expect(text(group({ count: 3 }))).toEqual({
      title: '3 courses end soon',
      body: 'The first, “UX Writing” at Demo School, ends in 3 days. Open Today to see them.',
    });
    expect(text(group({ count: 3 }), 'zh-TW')).toEqual({
      title: '3 門課程即將到期',
      body: '最早的是 Demo School 的「UX Writing」，將在 3 天後到期。打開「今天」查看。',
    });
    expect(text(group({ count: 1, leftMs: 20 * 3_600_000 }))).toEqual({
      title: 'Course access ends soon',
      body: 'Your access to “UX Writing” at Demo School ends in 20 hours. Finish it before then.',
    });
  });

  it('events in minutes and hours; lectures with their course', () => {
    expect(
      text(group({ kind: 'event-starting', title: 'Live Q&A', leftMs: 59 * 60_000 })).body,
    ).toBe('“Live Q&A” at Demo School starts in 59 minutes.');
    expect(text(group({ kind: 'event-starting', title: 'Live Q&A', leftMs: 60_000 })).body).toBe(
      '“Live Q&A” at Demo School starts in 1 minute.',
    );
    expect(
      text(group({ kind: 'event-starting', title: 'Live Q&A', leftMs: 23 * 3_600_000 }), 'zh-TW')
        .body,
    ).toBe('Demo School 的「Live Q&A」將在 23 小時後開始。');
    expect(
      text(group({ kind: 'event-starting', count: 2, title: 'Live Q&A', leftMs: 3_600_000 })).title,
    ).toBe('2 events start soon');
    const lecture = group({
      kind: 'lecture-unlocked',
      title: 'Model 3',
      courseTitle: 'Machine Learning',
      leftMs: 0,
    });
    expect(text(lecture)).toEqual({
      title: 'A lecture is unlocked',
      body: '“Model 3” in “Machine Learning” at Demo School is ready to watch.',
    });
    expect(text({ ...lecture, count: 4 }, 'zh-TW')).toEqual({
      title: '4 個單元已解鎖',
      body: '包括 Demo School 「Machine Learning」的「Model 3」。打開「今天」查看。',
    });
  });

  it("a site's long or multi-line title is clipped to one line", () => {
    const [n] = reminderNotifications(
      [group({ title: `${'長'.repeat(5000)}\n\nsecond line`, courseTitle: 'a\r\nb' })],
      label,
      NOW,
    );
    expect(Array.from(n!.reminder!.title)).toHaveLength(REMINDER_TITLE_CHARS);
    expect(n!.reminder!.title.endsWith('…')).toBe(true);
    expect(n!.reminder!.courseTitle).toBe('a b');
  });

  it("Settings' switches by kind", () => {
    expect(
      enabledReminders({
        remindAccessEnding: false,
        remindLectureUnlocked: true,
        remindEventStarting: false,
      }),
    ).toEqual({
      'access-ending': false,
      'lecture-unlocked': true,
      'event-starting': false,
    });
  });
});
