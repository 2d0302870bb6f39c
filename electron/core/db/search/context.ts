import type { LectureState, SearchHitContext } from '../../../common/view-models';
import { assertNever } from '../../../common/result';
import { knownOr, siteText, siteTextOrNull } from '../../../common/site-values';
import { getOrder, getPayment } from '../payments';
import { prepared } from '../statements';
import type { ReadableDB } from '../handles';
import type { HitRow } from './query';

const NONE: SearchHitContext = {
  course: null,
  section: null,
  lectureState: null,
  percent: null,
  person: null,
  courseCount: null,
  tradeNo: null,
  amount: null,
  orderState: null,
  paymentState: null,
  at: null,
};
const LECTURE_STATES: readonly LectureState[] = ['unread', 'read', 'completed'];

type Key = { siteId: string; id: string };

/** A hit's context and the title it shows: the school's own text, from the row the hit points to (null: none there). */
export interface HitDetail {
  readonly context: SearchHitContext;
  readonly title: string | null;
}
const noTitle = (context: SearchHitContext): HitDetail => ({ context, title: null });

/**
 * Where a hit belongs and its state, read for the hits shown only (100 at most, each by primary key): the line under
 * its title, "Lecture · Intro to Data Analysis · Week 1 · Completed". A row gone since the index was written (a
 * sync between) has no context: the hit still shows. The same read gives the title as the school wrote it: the
 * index holds it in its search form (normalize.ts: NFKC folds a full-width colon to ":"), which is for matching only.
 * An instructor's title is its own key, an order's its items' titles as Purchases shows them; a payment has none.
 */
export function contextOf(db: ReadableDB, row: HitRow, now: Date): HitDetail {
  const key: Key = { siteId: row.site_id, id: row.item_id };
  switch (row.kind) {
    case 'course': {
      const c = prepared<Key, { title: string; percent: number; person: string | null }>(
        db,
        'SELECT title, percent, instructor_name AS person FROM courses WHERE site_id = @siteId AND id = @id',
      ).get(key);
      return c
        ? {
            context: { ...NONE, percent: c.percent, person: siteTextOrNull(c.person) },
            title: c.title,
          }
        : noTitle(NONE);
    }
    case 'section': {
      const s = prepared<Key, { title: string; course: string }>(
        db,
        `SELECT s.title, c.title AS course FROM sections s JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
         WHERE s.site_id = @siteId AND s.id = @id`,
      ).get(key);
      return s
        ? { context: { ...NONE, course: siteText(s.course) }, title: s.title }
        : noTitle(NONE);
    }
    case 'lecture': {
      const l = prepared<
        Key,
        { title: string; course: string; section: string; state: string; locked: number }
      >(
        db,
        `SELECT l.title, c.title AS course, s.title AS section, l.state, l.is_locked AS locked FROM lectures l
         JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
         WHERE l.site_id = @siteId AND l.id = @id`,
      ).get(key);
      if (!l) return noTitle(NONE);
      const lectureState = l.locked ? 'locked' : knownOr(l.state, LECTURE_STATES);
      return {
        context: {
          ...NONE,
          course: siteText(l.course),
          section: siteText(l.section),
          lectureState,
        },
        title: l.title,
      };
    }
    case 'instructor': {
      const n = prepared<Key, { n: number }>(
        db,
        'SELECT count(*) AS n FROM courses WHERE site_id = @siteId AND trim(instructor_name) = @id',
      ).get(key)!;
      // The row's key is the name as the courses hold it (build.ts).
      return { context: { ...NONE, courseCount: n.n }, title: row.item_id };
    }
    case 'order': {
      const o = getOrder(db, row.site_id, row.item_id, now);
      if (!o) return noTitle(NONE);
      // Its items' titles as Purchases names the order (payment-views.ts toOrderView).
      const context = {
        ...NONE,
        tradeNo: o.tradeNo,
        amount: { value: o.totalAmount, currency: o.currency },
        orderState: o.summaryState,
        at: o.createdAt,
      };
      return { context, title: o.title };
    }
    case 'payment': {
      const p = getPayment(db, row.site_id, row.item_id, now);
      return noTitle(
        p
          ? {
              ...NONE,
              tradeNo: p.tradeNo,
              amount: { value: p.amount, currency: p.currency },
              paymentState: p.paymentState,
              at: p.createdAt,
            }
          : NONE,
      );
    }
    case 'product': {
      const p = prepared<Key, { title: string; at: string }>(
        db,
        'SELECT title, delivered_at AS at FROM digital_products WHERE site_id = @siteId AND id = @id',
      ).get(key);
      return p ? { context: { ...NONE, at: p.at }, title: p.title } : noTitle(NONE);
    }
    case 'event': {
      const e = prepared<Key, { title: string; at: string }>(
        db,
        'SELECT title, starts_at AS at FROM event_registrations WHERE site_id = @siteId AND id = @id',
      ).get(key);
      return e ? { context: { ...NONE, at: e.at }, title: e.title } : noTitle(NONE);
    }
    case 'consulting': {
      const c = prepared<Key, { title: string; person: string; course: string | null }>(
        db,
        `SELECT s.title, s.consultant_name AS person, c.title AS course FROM consulting_services s
         LEFT JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id WHERE s.site_id = @siteId AND s.id = @id`,
      ).get(key);
      return c
        ? {
            context: { ...NONE, person: siteText(c.person), course: siteTextOrNull(c.course) },
            title: c.title,
          }
        : noTitle(NONE);
    }
    case 'notification': {
      const n = prepared<Key, { title: string; at: string }>(
        db,
        'SELECT title, created_at AS at FROM notifications WHERE site_id = @siteId AND id = @id',
      ).get(key);
      return n ? { context: { ...NONE, at: n.at }, title: n.title } : noTitle(NONE);
    }
    default:
      return assertNever(row.kind, 'search hit kind');
  }
}
