import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { startTestServer } from '../../helpers/server';
import { paymentRow } from '../helpers';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { ContentMemo, contentMemo } from '../../../embedded-server/store/content-memo';
import { insertPayment, type PaymentRow } from '../../../embedded-server/store/content-payments';
import { setLectureProgress } from '../../../embedded-server/store/content-courses';
import { CoursesQuery, PaymentsQuery } from '../../../electron/core/graphql/documents';
import { graphql, mintToken, operatorCall, viewerData } from './tokens';

// The member API memoises course trees and payment counts (store/content-memo.ts) against
// generations that triggers raise (migration 005). Whatever writes, through whichever path, the
// next answer must show it.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Lecture {
  lectureId: string;
  title: string;
  state: string;
}
interface Course {
  id: string;
  detailProgress: { totalLectures: number; readLectures: number; completedLectures: number };
  sections: { id: string; lectures: Lecture[] }[];
}

const courses = async (server: EmbeddedServer): Promise<Course[]> =>
  (await viewerData(server, print(CoursesQuery), { first: 25 })).enrolledCourses.nodes as Course[];
const lectures = (c: Course): Lecture[] => c.sections.flatMap((s) => s.lectures);

const generation = (server: EmbeddedServer, name: string): number =>
  (server.db.prepare('SELECT n FROM content_generations WHERE name = ?').get(name) as { n: number })
    .n;

describe('Course trees are memoised per course and never outlive a change (store/content-memo.ts)', () => {
  it('a lecture added and deleted through the admin API shows in the next member answer', async () => {
    const server = await startTestServer();
    const before = await courses(server);
    const course = before.find((c) => c.sections.length > 0)!;
    const section = course.sections[0]!;
    const call = operatorCall(server, ['curriculum:read', 'curriculum:write']);

    const created = await call('POST', `/courses/${course.id}/sections/${section.id}/lectures`, {
      title: 'Added after the memo 新增',
      duration: 120,
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as Json).id as string;
    const afterAdd = (await courses(server)).find((c) => c.id === course.id)!;
    expect(lectures(afterAdd).map((l) => l.lectureId)).toContain(id);
    expect(afterAdd.detailProgress.totalLectures).toBe(course.detailProgress.totalLectures + 1);

    expect((await call('DELETE', `/courses/${course.id}/lectures/${id}`)).status).toBe(204);
    const afterDelete = (await courses(server)).find((c) => c.id === course.id)!;
    expect(afterDelete).toEqual(course);
  });

  it('a raw SQL rename, a section retitled and a deleted course (cascade) all show at once', async () => {
    const server = await startTestServer();
    const [first, second] = (await courses(server)).filter((c) => lectures(c).length > 0);
    const lecture = lectures(first!)[0]!;

    server.db
      .prepare('UPDATE lectures SET title = ? WHERE id = ?')
      .run('Renamed in SQL', lecture.lectureId);
    server.db
      .prepare('UPDATE sections SET title = ? WHERE id = ?')
      .run('Section renamed', first!.sections[0]!.id);
    const renamed = (await courses(server)).find((c) => c.id === first!.id)!;
    expect(lectures(renamed).find((l) => l.lectureId === lecture.lectureId)!.title).toBe(
      'Renamed in SQL',
    );
    expect((renamed.sections[0] as unknown as { title: string }).title).toBe('Section renamed');

    // Deleting a course cascades to its sections and lectures: their delete triggers fire too.
    const g = generation(server, 'course_tree');
    server.db.prepare('DELETE FROM courses WHERE id = ?').run(second!.id);
    expect(generation(server, 'course_tree')).toBeGreaterThan(g);
    expect(
      server.db.prepare('SELECT count(*) AS n FROM lectures WHERE course_id = ?').get(second!.id),
    ).toEqual({ n: 0 });
  });

  it("the viewer's progress is read on every request, never memoised", async () => {
    const server = await startTestServer();
    const course = (await courses(server)).find((c) =>
      lectures(c).some((l) => l.state === 'unread'),
    )!;
    const lecture = lectures(course).find((l) => l.state === 'unread')!;
    const g = generation(server, 'course_tree');

    setLectureProgress(
      server.db,
      'usr_student',
      course.id,
      lecture.lectureId,
      'completed',
      server.clock.now(),
    );
    expect(generation(server, 'course_tree')).toBe(g); // progress is not content: the memo stays
    const after = (await courses(server)).find((c) => c.id === course.id)!;
    expect(lectures(after).find((l) => l.lectureId === lecture.lectureId)!.state).toBe('completed');
    expect(after.detailProgress.completedLectures).toBe(
      course.detailProgress.completedLectures + 1,
    );
  });
});

describe('Payment counts are memoised per member against the payments generation', () => {
  const totalCount = async (server: EmbeddedServer): Promise<number> =>
    (await viewerData(server, print(PaymentsQuery), { first: 50 })).payments.totalCount as number;
  const row = (server: EmbeddedServer, id: string, userId: string): PaymentRow =>
    paymentRow({
      id,
      school_id: server.site.schoolId,
      user_id: userId,
      trade_no: `T-${id}`,
      created_at: server.clock.now(),
      paid_at: server.clock.now(),
      payment_state: 'paid',
    });

  it('follows an insert, a move to another member and a delete; other updates keep the memo', async () => {
    const server = await startTestServer();
    const n = await totalCount(server);
    insertPayment(server.db, row(server, 'pay_memo_1', 'usr_student'));
    expect(await totalCount(server)).toBe(n + 1);

    const g = generation(server, 'payments');
    server.db
      .prepare("UPDATE payments SET payment_state = 'refunded' WHERE id = 'pay_memo_1'")
      .run();
    expect(generation(server, 'payments')).toBe(g);

    server.db
      .prepare("UPDATE payments SET user_id = 'usr_someone_else' WHERE id = 'pay_memo_1'")
      .run();
    expect(await totalCount(server)).toBe(n);
    server.db.prepare("UPDATE payments SET user_id = 'usr_student' WHERE id = 'pay_memo_1'").run();
    expect(await totalCount(server)).toBe(n + 1);
    server.db.prepare("DELETE FROM payments WHERE id = 'pay_memo_1'").run();
    expect(await totalCount(server)).toBe(n);
  });
});

describe('Notification counts are memoised per member and filter against the notifications generation', () => {
  it('follow a new notice, a mark-read through the API and a delete', async () => {
    const server = await startTestServer();
    const counts = async () => {
      const v = await viewerData(
        server,
        '{ viewer { all: notifications(first: 1) { totalCount } unread: notifications(first: 1, unreadOnly: true) { totalCount } } }',
        {},
      );
      return [v.all.totalCount as number, v.unread.totalCount as number];
    };
    const [all, unread] = await counts();
    server.db
      .prepare(
        "INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at) VALUES ('ntf_memo', ?, 'usr_student', 'system', 'New', 'Body', NULL, ?, NULL)",
      )
      .run(server.site.schoolId, server.clock.now());
    expect(await counts()).toEqual([all! + 1, unread! + 1]);

    const write = mintToken(server, { scopes: ['account:read', 'account:write'] }).accessToken;
    const res = await graphql(
      server,
      write,
      'mutation { markNotificationRead(id: "ntf_memo") { id readAt } }',
    );
    expect(((await res.json()) as Json).errors).toBeUndefined();
    expect(await counts()).toEqual([all! + 1, unread!]);

    server.db.prepare("DELETE FROM notifications WHERE id = 'ntf_memo'").run();
    expect(await counts()).toEqual([all!, unread!]);
  });
});

describe('ContentMemo bounds', () => {
  it('keeps at most its limit, dropping the least recently remembered first', () => {
    const memo = new ContentMemo<number>(new Map(), 3);
    for (const k of ['a', 'b', 'c']) memo.remember(k, k.charCodeAt(0));
    memo.remember('a', 1); // remembered again: now the newest
    memo.remember('d', 4);
    expect(memo.size).toBe(3);
    expect(memo.get('b')).toBeUndefined();
    expect([memo.get('a'), memo.get('c'), memo.get('d')]).toEqual([1, 99, 4]);
  });

  it('a memo read after a write starts empty; one read before it keeps its entries', async () => {
    const server = await startTestServer();
    const memo = contentMemo<string>(server.db, 'course_tree');
    memo.remember('crs_x', 'tree');
    expect(contentMemo<string>(server.db, 'course_tree').get('crs_x')).toBe('tree');
    server.db
      .prepare(
        "UPDATE sections SET title = title || '!' WHERE rowid = (SELECT min(rowid) FROM sections)",
      )
      .run();
    expect(contentMemo<string>(server.db, 'course_tree').get('crs_x')).toBeUndefined();
  });
});
