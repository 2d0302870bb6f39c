import { lectureDone } from '../../../electron/common/facts';
import { describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../electron/common/view-models';
import {
  getBilling,
  getConsulting,
  getCourseDetail,
  getEntitlements,
  getLibrary,
  getNotifications,
  getProfile,
  search,
  COURSE_DISPLAY_FIELDS,
} from '../../../electron/core/db';
import { CoursesQuery } from '../../../electron/core/graphql/documents';
import { print } from 'graphql';
import { createSyncService } from '../../../electron/core/sync';
import { queryServer } from './helpers/member-token';
import { SERVER_VIEWER, serverPayments } from './helpers/server-queries';
import { openTempDb, startSite } from './helpers/setup';

/* eslint-disable @typescript-eslint/no-explicit-any -- server answers are compared field by field below */
const displayFields: ReadonlySet<string> = new Set(COURSE_DISPLAY_FIELDS);

describe('full sync of the demo seed over HTTP (service-spec "Member API: viewer")', () => {
  it('stores exactly what the server holds, field by field, in every view', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const progress: SyncProgress[] = [];
    const changed: string[] = [];
    const sync = createSyncService({
      db,
      clientFor: () => site.client,
      onProgress: (p) => progress.push(p),
      onDataChanged: (s) => changed.push(s),
    });

    const summary = await sync.syncNow('demo');
    await sync.close();
    expect(summary.outcome).toBe('completed');
    expect(summary.error).toBeNull();
    expect(changed).toEqual(['demo']);

    const server: any = (await queryServer<any>(site.server.url, site.accessToken, SERVER_VIEWER))
      .viewer;
    const payments = await serverPayments(site.server.url, site.accessToken);
    const now = new Date();

    // Profile and schools (roles highest first).
    expect(getProfile(db, 'demo')).toEqual({
      userId: server.id,
      name: server.name,
      email: server.email,
      avatarUrl: server.avatar,
      schools: server.schools,
    });

    // Library and course detail.
    const courses = server.enrolledCourses.nodes;
    expect(courses.length).toBeGreaterThan(0);
    expect(summary.counts.courses).toBe(server.enrolledCourses.totalCount);
    const library = getLibrary(db, 'demo', now);
    expect(library.map((c) => c.courseId)).toEqual(courses.map((c: any) => c.id));
    for (const c of courses) {
      const detail = getCourseDetail(db, 'demo', c.id, now);
      // The last watched lecture watched into its finished tail is done here before the school
      // marks it (facts.ts).
      const tailDone = (l: any) =>
        l.lectureId === c.lastWatchedLecture?.lectureId &&
        l.state !== 'completed' &&
        lectureDone({
          state: l.state,
          durationSeconds: l.duration,
          lastPositionSeconds: c.lastWatchedLecture.positionSeconds,
        });
      const tail = c.sections.some((s: any) => s.lectures.some(tailDone)) ? 1 : 0;
      expect(detail).toMatchObject({
        courseId: c.id,
        slug: c.slug,
        title: c.title,
        description: c.description,
        coverImageUrl: c.coverImageUrl,
        instructorName: c.instructorName,
        enrolledAt: c.enrolledAt,
        expireDate: c.expireDate,
        hasLifetimeAccess: c.hasLifetimeAccess,
        totalLectures: c.detailProgress.totalLectures,
        readLectures: c.detailProgress.readLectures,
        completedLectures: Math.min(
          c.detailProgress.totalLectures,
          c.detailProgress.completedLectures + tail,
        ),
        percent: c.detailProgress.percent,
        completedAt: c.detailProgress.completedAt,
      });
      expect(detail.isExpired).toBe(
        !c.hasLifetimeAccess && c.expireDate !== null && Date.parse(c.expireDate) <= now.getTime(),
      );
      expect(detail.sections).toEqual(
        c.sections.map((s: any) => ({
          sectionId: s.id,
          title: s.title,
          position: s.position,
          lectures: s.lectures.map((l: any) => ({
            lectureId: l.lectureId,
            title: l.title,
            position: l.position,
            state: tailDone(l) ? 'completed' : l.state,
            isLocked: l.isLocked,
            unlockAt: l.unlockAt,
            durationSeconds: l.duration,
            isLastWatched: l.lectureId === c.lastWatchedLecture?.lectureId,
          })),
        })),
      );
      if (c.lastWatchedLecture) {
        expect(detail.lastWatched).toEqual(c.lastWatchedLecture);
        const lecture = c.sections
          .flatMap((s: any) => s.lectures.map((l: any) => ({ ...l, sectionTitle: s.title })))
          .find((l: any) => l.lectureId === c.lastWatchedLecture.lectureId);
        expect(detail.continueWatching).toEqual({
          lectureId: lecture.lectureId,
          lectureTitle: lecture.title,
          sectionTitle: lecture.sectionTitle,
          positionSeconds: c.lastWatchedLecture.positionSeconds,
          durationSeconds: lecture.duration,
        });
      } else {
        expect(detail.continueWatching).toBeNull();
      }
      // The library's entry is the detail without its course-screen parts.
      const { sections: _s, lastWatched: _l, ...rest } = detail;
      expect(library.find((l) => l.courseId === c.id)).toEqual(
        Object.fromEntries(Object.entries(rest).filter(([f]) => !displayFields.has(f))),
      );
    }
    expect(courses.some((c: any) => c.lastWatchedLecture)).toBe(true);

    // Asked again with the sync's own course query: every field of its nodes the course screen
    // shows under the same name is stored as the server sent it. The display-only fields
    // (course-display.ts) are what that query asks beyond the columns, so a field it gains is
    // compared here with no line of its own.
    const appCourses = (
      await queryServer<any>(site.server.url, site.accessToken, print(CoursesQuery), {
        first: 100,
      })
    ).viewer.enrolledCourses.nodes;
    expect(appCourses.map((n: any) => n.id)).toEqual(courses.map((c: any) => c.id));
    for (const node of appCourses) {
      const detail: any = getCourseDetail(db, 'demo', node.id, now);
      const shared = Object.entries(node).filter(
        ([f, v]) => f in detail && (v === null || typeof v !== 'object'),
      );
      expect(shared.length).toBeGreaterThan(COURSE_DISPLAY_FIELDS.length);
      for (const [field, value] of shared) expect(detail[field], field).toEqual(value);
      for (const field of COURSE_DISPLAY_FIELDS) expect(detail).toHaveProperty(field, node[field]);
    }

    // Billing: every payment in exactly one order, grouped by tradeNo (spec "Payment node").
    const billing = getBilling(db, 'demo', now);
    const stored = billing.orders.flatMap((o) => o.payments.map((p) => ({ order: o.tradeNo, p })));
    expect(stored).toHaveLength(payments.length);
    for (const p of payments) {
      const hit = stored.find((s) => s.p.paymentId === p.id)!;
      expect(hit.order).toBe(p.tradeNo);
      expect(hit.p).toEqual({
        paymentId: p.id,
        tradeNo: p.tradeNo,
        amount: p.amount,
        currency: p.currency,
        paymentType: p.paymentType,
        paymentState: p.paymentState,
        createdAt: p.createdAt,
        paidAt: p.paidAt,
        adjustments: p.adjustments,
        invoice: p.invoice,
        lineItems: p.lineitems,
        installment: p.installment,
        refund: {
          state: p.refundingState,
          refundedAmount: p.refundedAmount,
          refundedAt: p.refundedAt,
          refundRequestedAt: p.refundRequestedAt,
        },
        instructions:
          p.codeNo === null
            ? null
            : {
                bankCode: p.bankCode,
                bankName: p.bankName,
                codeNo: p.codeNo,
                expiredAt: p.expiredAt,
                isExpired: p.expiredAt !== null && Date.parse(p.expiredAt) <= now.getTime(),
              },
      });
    }
    expect(new Set(billing.orders.map((o) => o.tradeNo)).size).toBe(
      new Set(payments.map((p) => p.tradeNo)).size,
    );
    for (const total of billing.totals) {
      const paid = payments
        .filter(
          (p) =>
            p.currency === total.currency &&
            (p.paymentState === 'paid' || p.paymentState === 'refunded'),
        )
        .reduce((n, p) => n + p.amount, 0);
      const refunded = payments
        .filter((p) => p.currency === total.currency)
        .reduce((n, p) => n + p.refundedAmount, 0);
      expect(total).toEqual({ currency: total.currency, paid, refunded });
    }
    const payable = payments.filter(
      (p) =>
        p.paymentState === 'not_paid' &&
        p.codeNo !== null &&
        (p.expiredAt === null || Date.parse(p.expiredAt) > now.getTime()),
    );
    expect(billing.pendingInstructions.map((p) => p.paymentId).sort()).toEqual(
      payable.map((p) => p.id).sort(),
    );

    // Entitlements.
    const entitlements = getEntitlements(db, 'demo', now);
    expect(entitlements.digitalProducts).toEqual(server.digitalProducts.nodes);
    expect(
      entitlements.eventRegistrations
        .map(({ isPast: _p, ...e }) => e)
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(
      [...server.eventRegistrations.nodes].sort((a: any, b: any) => a.id.localeCompare(b.id)),
    );

    // Consulting: meetings only as booked times, never with ids (spec "Consulting service").
    const consulting = getConsulting(db, 'demo');
    expect(consulting.map((c) => c.id)).toEqual(
      server.consultingServices.nodes.map((c: any) => c.id),
    );
    for (const c of server.consultingServices.nodes) {
      const view = consulting.find((v) => v.id === c.id)!;
      expect(view).toMatchObject({
        title: c.title,
        description: c.description,
        durationMinutes: c.durationMinutes,
        consultantName: c.consultantName,
        courseId: c.courseId,
        slots: c.slots,
      });
      expect(view.courseTitle).toBe(courses.find((x: any) => x.id === c.courseId)?.title ?? null);
      expect(view.bookedTimes).toEqual(
        c.meetings
          .map((m: any) => ({ startsAt: m.startsAt, endsAt: m.endsAt }))
          .sort((a: any, b: any) => a.startsAt.localeCompare(b.startsAt)),
      );
    }

    // Notifications.
    const notifications = getNotifications(db, 'demo');
    expect(
      notifications.items
        .map(({ pendingSync: _p, ...n }) => n)
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([...server.notifications.nodes].sort((a: any, b: any) => a.id.localeCompare(b.id)));
    expect(notifications.unreadCount).toBe(server.unreadNotificationCount);
    expect(
      notifications.subscriptions
        .map(({ pendingSync: _p, ...s }) => s)
        .sort((a, b) => `${a.topic}${a.channel}`.localeCompare(`${b.topic}${b.channel}`)),
    ).toEqual(
      [...server.notificationSubscriptions].sort((a: any, b: any) =>
        `${a.topic}${a.channel}`.localeCompare(`${b.topic}${b.channel}`),
      ),
    );

    // Search finds a synced lecture by a word of its title.
    const lecture = courses[0].sections[0].lectures[0];
    const word = (lecture.title as string).split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w));
    if (word)
      expect(
        search(db, 'demo', word).some((h) => h.kind === 'lecture' && h.id === lecture.lectureId),
      ).toBe(true);

    // Progress: phases in order, counters never go back, the last event says done.
    expect(progress[0]).toMatchObject({ siteId: 'demo', running: true });
    expect(progress.at(-1)).toMatchObject({ running: false, phase: 'idle', fraction: 1 });
    // Connections are fetched side by side, so fetch phases interleave; the outbox goes first and
    // the commit last.
    const phases = progress.filter((p) => p.running).map((p) => p.phase);
    expect(phases[0]).toBe('outbox');
    expect(phases.at(-1)).toBe('committing');
    expect(new Set(phases)).toEqual(
      new Set([
        'outbox',
        'profile',
        'courses',
        'digital-products',
        'consulting',
        'events',
        'payments',
        'notifications',
        'committing',
      ]),
    );
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.fraction ?? 1).toBeGreaterThanOrEqual(
        progress[i - 1]!.running ? (progress[i - 1]!.fraction ?? 0) : 0,
      );
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.pagesFetched).toBeGreaterThanOrEqual(progress[i - 1]!.pagesFetched);

    const status = sync.status('demo');
    expect(status).toMatchObject({
      siteId: 'demo',
      running: false,
      lastSyncedAt: summary.finishedAt,
      lastError: null,
      pendingChanges: 0,
      failedChanges: [],
      online: true,
      missingScopes: [],
    });
  });
});
