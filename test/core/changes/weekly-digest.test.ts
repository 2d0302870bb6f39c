import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  notificationText,
  type DesktopNotification,
} from '../../../electron/common/desktop-notifications';
import { commitSnapshot, ensureSite, getChangesSince } from '../../../electron/core/db';
import { DIGEST_WEEK_MS, WeeklyDigest } from '../../../electron/core/desktop/weekly-digest';
import type { SiteSnapshot } from '../../../electron/core/db/records';
import { course, payment } from '../db/fixtures';
import { closeDatabases, NOW, openDb } from '../db/pages-scaffold';

/**
 * The weekly digest over a real offline database: its changes come from commits, its memory from
 * a real file, its clock is the test's (Date only, so the commits stamp their changes by it too).
 */
const dirs: string[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  closeDatabases();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const lecture = (id: string) => ({
  lectureId: id,
  title: `Lecture ${id}`,
  position: 9,
  state: 'unread' as const,
  isLocked: false,
  unlockAt: null,
  duration: 60,
});
const DAY = 24 * 60 * 60 * 1000;
const base: SiteSnapshot = {
  courses: [course('c1'), course('c2')],
  payments: [payment('p1', { paymentState: 'not_paid' })],
};
/** c1 gains `n` lectures (named by `tag`) and p1 is paid. */
function changed(n: number, tag: string): SiteSnapshot {
  const c1 = course('c1');
  const added = Array.from({ length: n }, (_, i) => lecture(`${tag}${i}`));
  return {
    courses: [
      {
        ...c1,
        sections: [{ ...c1.sections[0]!, lectures: [...c1.sections[0]!.lectures, ...added] }],
      },
      course('c2'),
    ],
    payments: [payment('p1')],
  };
}

function setup(options: { file?: string; enabled?: () => boolean } = {}) {
  const db = openDb();
  ensureSite(db, 'a', NOW);
  commitSnapshot(db, 'a', base);
  const dir = mkdtempSync(join(tmpdir(), 'ld-digest-'));
  dirs.push(dir);
  const file = options.file ?? join(dir, 'digest.json');
  const sent: DesktopNotification[] = [];
  const open = () =>
    WeeklyDigest.open({
      file,
      now: () => Date.now(),
      enabled: options.enabled ?? (() => true),
      changesSince: (since) => getChangesSince(db, since),
      siteLabel: (id) => `School ${id.toUpperCase()}`,
      notify: (n) => sent.push(n),
    });
  return {
    db,
    file,
    sent,
    open,
    advance: (ms: number) => vi.setSystemTime(Date.now() + ms),
    sync: (s: SiteSnapshot) => commitSnapshot(db, 'a', s),
  };
}

describe('the weekly digest', () => {
  it('sends one notification a week, counting the changes by school and kind', async () => {
    const t = setup();
    const digest = await t.open();
    t.sync(changed(3, 'x'));
    expect(await digest.run()).toBe(true);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!.digest).toEqual([
      { label: 'School A', counts: { lecturesNew: 3, paymentsPaid: 1 } },
    ]);
    expect(notificationText(t.sent[0]!, 'en').body).toContain(
      'School A: 3 new lectures, 1 payment paid.',
    );
    expect(notificationText(t.sent[0]!, 'zh-TW').body).toContain(
      'School A：3 個新單元、1 筆付款完成',
    );
    expect(t.sent[0]!.screen).toBe('today');

    // Within the week: more changes, no second notification.
    t.advance(DAY);
    t.sync(changed(4, 'x'));
    expect(await digest.run()).toBe(false);
    t.advance(DIGEST_WEEK_MS - DAY - 1);
    expect(await digest.run()).toBe(false);
    // A week after the first: the next one, of the week just gone.
    t.advance(1);
    expect(await digest.run()).toBe(true);
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.digest?.[0]?.counts).toEqual({ lecturesNew: 1 });
    expect(notificationText(t.sent[1]!, 'en').body).toContain('School A: 1 new lecture.');
  });

  it('sends nothing in a week when nothing changed, and does not use up the week', async () => {
    const t = setup();
    const digest = await t.open();
    t.sync(base);
    expect(await digest.run()).toBe(false);
    t.advance(DAY);
    expect(await digest.run()).toBe(false);
    expect(t.sent).toEqual([]);
    // Changes that went out of the week's window are not told either.
    t.sync(changed(1, 'y'));
    t.advance(DIGEST_WEEK_MS + 1);
    expect(await digest.run()).toBe(false);
    // The first change after a quiet stretch is told at once.
    t.sync(changed(2, 'y'));
    expect(await digest.run()).toBe(true);
    expect(t.sent).toHaveLength(1);
  });

  it('sends nothing while switched off in Settings, and sends once switched on again', async () => {
    let on = false;
    const t = setup({ enabled: () => on });
    const digest = await t.open();
    t.sync(changed(2, 'z'));
    expect(await digest.run()).toBe(false);
    t.advance(DIGEST_WEEK_MS);
    t.sync(changed(3, 'z'));
    expect(await digest.run()).toBe(false);
    expect(t.sent).toEqual([]);
    on = true;
    expect(await digest.run()).toBe(true);
    expect(t.sent).toHaveLength(1);
  });

  it('remembers across a restart when it was last sent', async () => {
    const t = setup();
    t.sync(changed(1, 'r'));
    expect(await (await t.open()).run()).toBe(true);
    // The app restarts the next day: the digest opened again from the same file waits out the week.
    t.advance(DAY);
    t.sync(changed(2, 'r'));
    const again = await t.open();
    expect(await again.run()).toBe(false);
    t.advance(DIGEST_WEEK_MS - DAY);
    expect(await (await t.open()).run()).toBe(true);
    expect(t.sent).toHaveLength(2);
  });
});
