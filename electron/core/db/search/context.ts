import type { Database } from 'better-sqlite3';
import type { LectureState, SearchHitContext } from '../../../common/view-models';
import { assertNever } from '../../../common/result';
import { knownOr, siteText, siteTextOrNull } from '../../../common/site-values';
import { getOrder, getPayment } from '../payments';
import { prepared } from '../statements';
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

/**
 * Where a hit belongs and its state, read for the hits shown only (50 at most, each by primary key): the line under
 * its title, "Lecture · Intro to Data Analysis · Week 1 · Completed". A row gone since the index was written (a
 * sync between) has no context: the hit still shows.
 */
export function contextOf(db: Database, row: HitRow, now: Date): SearchHitContext {
  const key: Key = { siteId: row.site_id, id: row.item_id };
  switch (row.kind) {
    case 'course': {
      const c = prepared<Key, { percent: number; person: string | null }>(
        db,
        'SELECT percent, instructor_name AS person FROM courses WHERE site_id = @siteId AND id = @id',
      ).get(key);
      return c ? { ...NONE, percent: c.percent, person: siteTextOrNull(c.person) } : NONE;
    }
    case 'section': {
      const s = prepared<Key, { course: string }>(
        db,
        `SELECT c.title AS course FROM sections s JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
         WHERE s.site_id = @siteId AND s.id = @id`,
      ).get(key);
      return s ? { ...NONE, course: siteText(s.course) } : NONE;
    }
    case 'lecture': {
      const l = prepared<Key, { course: string; section: string; state: string; locked: number }>(
        db,
        `SELECT c.title AS course, s.title AS section, l.state, l.is_locked AS locked FROM lectures l
         JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
         WHERE l.site_id = @siteId AND l.id = @id`,
      ).get(key);
      return l
        ? { ...NONE, course: siteText(l.course), section: siteText(l.section), lectureState: l.locked ? 'locked' : knownOr(l.state, LECTURE_STATES) }
        : NONE;
    }
    case 'instructor': {
      const n = prepared<Key, { n: number }>(db, 'SELECT count(*) AS n FROM courses WHERE site_id = @siteId AND trim(instructor_name) = @id').get(
        key,
      )!;
      return { ...NONE, courseCount: n.n };
    }
    case 'order': {
      const o = getOrder(db, row.site_id, row.item_id, now);
      return o
        ? { ...NONE, tradeNo: o.tradeNo, amount: { value: o.totalAmount, currency: o.currency }, orderState: o.summaryState, at: o.createdAt }
        : NONE;
    }
    case 'payment': {
      const p = getPayment(db, row.site_id, row.item_id, now);
      return p
        ? { ...NONE, tradeNo: p.tradeNo, amount: { value: p.amount, currency: p.currency }, paymentState: p.paymentState, at: p.createdAt }
        : NONE;
    }
    case 'product': {
      const p = prepared<Key, { at: string }>(db, 'SELECT delivered_at AS at FROM digital_products WHERE site_id = @siteId AND id = @id').get(key);
      return p ? { ...NONE, at: p.at } : NONE;
    }
    case 'event': {
      const e = prepared<Key, { at: string }>(db, 'SELECT starts_at AS at FROM event_registrations WHERE site_id = @siteId AND id = @id').get(key);
      return e ? { ...NONE, at: e.at } : NONE;
    }
    case 'consulting': {
      const c = prepared<Key, { person: string; course: string | null }>(
        db,
        `SELECT s.consultant_name AS person, c.title AS course FROM consulting_services s
         LEFT JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id WHERE s.site_id = @siteId AND s.id = @id`,
      ).get(key);
      return c ? { ...NONE, person: siteText(c.person), course: siteTextOrNull(c.course) } : NONE;
    }
    case 'notification': {
      const n = prepared<Key, { at: string }>(db, 'SELECT created_at AS at FROM notifications WHERE site_id = @siteId AND id = @id').get(key);
      return n ? { ...NONE, at: n.at } : NONE;
    }
    default:
      return assertNever(row.kind, 'search hit kind');
  }
}
