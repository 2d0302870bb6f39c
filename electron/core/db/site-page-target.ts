/**
 * What the school's page for something in the saved copy is (net/site-pages.ts builds its address):
 * a course by its slug, a lecture with the position to resume from (the course's last watched
 * position when it is that lecture), an order by its trade number, a consulting service by its id.
 * Something not in the saved copy, or a lecture that is still locked, has no page to open.
 */
import { CoreError } from '../errors';
import { isOpenAt } from './next-step';
import { prepared } from './statements';
import type { ReadableDB } from './handles';

/**
 * The page found, in the shape net/site-pages.ts builds an address from (db does no HTTP and
 * imports no net).
 */
export type SitePage =
  | { readonly kind: 'course'; readonly slug: string }
  | {
      readonly kind: 'lecture';
      readonly slug: string;
      readonly lectureId: string;
      readonly positionSeconds: number;
    }
  | { readonly kind: 'order'; readonly tradeNo: string }
  | { readonly kind: 'consulting'; readonly serviceId: string };

export type SitePageTarget =
  | { readonly kind: 'course'; readonly courseId: string }
  | { readonly kind: 'lecture'; readonly courseId: string; readonly lectureId: string }
  | { readonly kind: 'order'; readonly tradeNo: string }
  | { readonly kind: 'consulting'; readonly serviceId: string };

interface CourseRow {
  slug: string;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
}

export function sitePageOf(
  db: ReadableDB,
  siteId: string,
  target: SitePageTarget,
  now: number,
): SitePage {
  switch (target.kind) {
    case 'course':
    case 'lecture': {
      const course = prepared<{ siteId: string; courseId: string }, CourseRow>(
        db,
        'SELECT slug, last_lecture_id, last_position_seconds FROM courses WHERE site_id = @siteId AND id = @courseId',
      ).get({ siteId, courseId: target.courseId });
      if (!course) throw new CoreError('not-found', 'This course is not in your offline library.');
      if (target.kind === 'course') return { kind: 'course', slug: course.slug };
      const lecture = prepared<
        { siteId: string; courseId: string; lectureId: string },
        { is_locked: number; unlock_at: string | null }
      >(
        db,
        'SELECT is_locked, unlock_at FROM lectures WHERE site_id = @siteId AND course_id = @courseId AND id = @lectureId',
      ).get({ siteId, courseId: target.courseId, lectureId: target.lectureId });
      if (!lecture) throw new CoreError('not-found', 'This lecture is not in the course any more.');
      if (!isOpenAt({ isLocked: lecture.is_locked === 1, unlockAt: lecture.unlock_at }, now))
        throw new CoreError('forbidden', 'This lecture is locked.');
      const position =
        course.last_lecture_id === target.lectureId
          ? Math.max(0, course.last_position_seconds ?? 0)
          : 0;
      return {
        kind: 'lecture',
        slug: course.slug,
        lectureId: target.lectureId,
        positionSeconds: position,
      };
    }
    case 'order': {
      const found = prepared<{ siteId: string; tradeNo: string }, { n: number }>(
        db,
        'SELECT 1 AS n FROM payments WHERE site_id = @siteId AND trade_no = @tradeNo LIMIT 1',
      ).get({
        siteId,
        tradeNo: target.tradeNo,
      });
      if (!found) throw new CoreError('not-found', 'This order is not in your saved purchases.');
      return { kind: 'order', tradeNo: target.tradeNo };
    }
    case 'consulting': {
      const found = prepared<{ siteId: string; id: string }, { n: number }>(
        db,
        'SELECT 1 AS n FROM consulting_services WHERE site_id = @siteId AND id = @id',
      ).get({
        siteId,
        id: target.serviceId,
      });
      if (!found)
        throw new CoreError('not-found', 'This consulting service is not in your saved copy.');
      return { kind: 'consulting', serviceId: target.serviceId };
    }
  }
}
