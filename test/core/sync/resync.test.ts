import { describe, expect, it } from 'vitest';
import {
  getBilling,
  getCourseDetail,
  getLibrary,
  getNotifications,
  getProfile,
  search,
} from '../../../electron/core/db';
import { createSyncService } from '../../../electron/core/sync';
import { admin, getOperatorToken } from './helpers/member-token';
import { noSleep, openTempDb, startSite } from './helpers/setup';

const DAY = 24 * 60 * 60 * 1000;

describe('re-sync after server-side changes made through the operator admin API', () => {
  it('picks up a new enrollment, a new lecture, a refund, a published and a deleted notification', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    const now = new Date();
    const operator = (await getOperatorToken(site.server)).accessToken;
    const call = (method: string, path: string, body?: unknown) =>
      admin(site.server.url, operator, method, path, body);

    // A published course the student is not enrolled in.
    const enrolled = new Set(getLibrary(db, 'demo', now).map((c) => c.courseId));
    const catalog = (await call('GET', '/courses')) as {
      data: { id: string; title: string; published: boolean }[];
    };
    const fresh = catalog.data.find((c) => c.published && !enrolled.has(c.id))!;
    expect(fresh).toBeDefined();
    await call('POST', `/courses/${fresh.id}/students`, { userId: 'usr_student', lifetime: true });

    // A lecture added to the first section of an enrolled course.
    const course = getCourseDetail(db, 'demo', [...enrolled][0]!, now);
    const section = course.sections[0]!;
    const lecture = (await call(
      'POST',
      `/courses/${course.courseId}/sections/${section.sectionId}/lectures`,
      {
        title: 'Zymurgy appendix',
        duration: 321,
      },
    )) as { id: string };

    // A refund of a paid payment made within the 10-day refund window.
    const paid = getBilling(db, 'demo', now)
      .orders.flatMap((o) => o.payments)
      .find(
        (p) =>
          p.paymentState === 'paid' &&
          p.amount > 1 &&
          now.getTime() - Date.parse(p.createdAt) < 9 * DAY,
      )!;
    expect(paid).toBeDefined();
    const half = Math.floor(paid.amount / 2);
    await call('POST', `/orders/${paid.tradeNo}/payments/${paid.paymentId}/refund`, {
      amount: half,
    });

    // One notification deleted, one published.
    const gone = getNotifications(db, 'demo').items[0]!;
    await call('DELETE', `/notifications/${gone.id}`);
    const published = (await call('POST', '/notifications', {
      kind: 'announcement',
      title: 'Quokka festival',
      body: 'Bring a hat.',
      userIds: ['usr_student'],
    })) as {
      data: { id: string }[];
    };

    const summary = await sync.syncNow('demo');
    expect(summary.outcome).toBe('completed');

    expect(getLibrary(db, 'demo', now).map((c) => c.courseId)).toContain(fresh.id);
    expect(getLibrary(db, 'demo', now).find((c) => c.courseId === fresh.id)).toMatchObject({
      title: fresh.title,
      hasLifetimeAccess: true,
      isExpired: false,
    });

    const detail = getCourseDetail(db, 'demo', course.courseId, now);
    expect(detail.sections[0]!.lectures.find((l) => l.lectureId === lecture.id)).toMatchObject({
      title: 'Zymurgy appendix',
      durationSeconds: 321,
    });
    expect(search(db, 'demo', 'zymurgy')).toEqual([
      expect.objectContaining({
        kind: 'lecture',
        id: lecture.id,
        courseId: course.courseId,
        title: 'Zymurgy appendix',
        snippet: '[[Zymurgy]] appendix',
      }),
    ]);

    const order = getBilling(db, 'demo', now).orders.find((o) => o.tradeNo === paid.tradeNo)!;
    const refunded = order.payments.find((p) => p.paymentId === paid.paymentId)!;
    expect(refunded.refund.refundedAmount).toBe(half);
    expect(order.refundedAmount).toBeGreaterThanOrEqual(half);
    expect(order.summaryState).toBe('partially_refunded');

    const inbox = getNotifications(db, 'demo');
    expect(inbox.items.some((n) => n.id === gone.id)).toBe(false);
    expect(inbox.items.find((n) => n.id === published.data[0]!.id)).toMatchObject({
      title: 'Quokka festival',
      readAt: null,
    });
    expect(search(db, 'demo', 'quokka').map((h) => h.id)).toEqual([published.data[0]!.id]);
    expect(search(db, 'demo', gone.title).some((h) => h.id === gone.id)).toBe(false);
  });
});

describe('two sites stay apart (demo and demo2)', () => {
  it('syncs both into one database without mixing rows', async () => {
    const demo = await startSite({ site: 'demo' });
    const demo2 = await startSite({ site: 'demo2' });
    const { db } = openTempDb();
    const clients = { demo: demo.client, demo2: demo2.client } as Record<
      string,
      typeof demo.client
    >;
    const sync = createSyncService({ db, clientFor: (siteId) => clients[siteId]!, sleep: noSleep });
    const [a, b] = await Promise.all([sync.syncNow('demo'), sync.syncNow('demo2')]);
    expect(a.outcome).toBe('completed');
    expect(b.outcome).toBe('completed');
    const now = new Date();
    const libA = getLibrary(db, 'demo', now).map((c) => c.courseId);
    const libB = getLibrary(db, 'demo2', now).map((c) => c.courseId);
    expect(libA.length).toBeGreaterThan(0);
    expect(libB.length).toBeGreaterThan(0);
    expect(libA.filter((id) => libB.includes(id))).toEqual([]);
    expect(getProfile(db, 'demo').userId).toBe(getProfile(db, 'demo2').userId);
    const idsA = new Set(getNotifications(db, 'demo').items.map((n) => n.id));
    expect(getNotifications(db, 'demo2').items.some((n) => idsA.has(n.id))).toBe(false);

    // A change at one site leaves the other untouched.
    demo2.server.db.prepare('DELETE FROM notifications').run();
    await sync.syncNow('demo2');
    expect(getNotifications(db, 'demo2').items).toEqual([]);
    expect(getNotifications(db, 'demo').items.length).toBe(idsA.size);
    expect(getLibrary(db, 'demo', now).map((c) => c.courseId)).toEqual(libA);
  });
});
