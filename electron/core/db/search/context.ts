import type { LectureState, SearchHitContext } from '../../../common/view-models';
import { assertNever } from '../../../common/result';
import { knownOr, siteText, siteTextOrNull } from '../../../common/site-values';
import { getOrder, getPayment } from '../payments';
import { prepared } from '../statements';
import { BODY_OF } from './bodies';
import type { Database } from 'better-sqlite3';
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

/**
 * A hit's context and the title it shows: the school's own text, from the row the hit points to
 * (null: none there).
 */
export interface HitDetail {
  readonly context: SearchHitContext;
  readonly title: string | null;
  /** The words the hit is found by besides its title, as the school wrote them (bodies.ts). */
  readonly body?: string | null;
}
const noTitle = (context: SearchHitContext): HitDetail => ({ context, title: null });

/**
 * Where a hit belongs and its state, read for the hits shown only (100 at most, each by primary
 * key): the line under its title, "Lecture · Intro to Data Analysis · Week 1 · Completed". A row
 * gone since the index was written (a sync between) has no context: the hit still shows. The same
 * read gives the title as the school wrote it: the index holds it in its search form (normalize.ts:
 * NFKC folds a full-width colon to ":"), which is for matching only. An instructor's title is its
 * own key, an order's its items' titles as Purchases shows them; a payment has none.
 */
export function contextOf(db: ReadableDB, row: HitRow, now: Date): HitDetail {
  const key: Key = { siteId: row.site_id, id: row.item_id };
  const read = CONTEXT_OF[row.kind] as ContextReader | undefined;
  if (!read) return assertNever(row.kind as never, 'search hit kind');
  return read(db, key, row, now);
}

type ContextReader = (db: ReadableDB, key: Key, row: HitRow, now: Date) => HitDetail;

/** How each kind of hit reads its row: one primary-key read each. */
const CONTEXT_OF: { readonly [K in HitRow['kind']]: ContextReader } = {
  course: (db, key) => {
    const c = prepared<
      Key,
      { title: string; percent: number; person: string | null; body: string }
    >(
      db,
      `SELECT c.title, c.percent, c.instructor_name AS person, ${BODY_OF.course('c')} AS body
       FROM courses c WHERE c.site_id = @siteId AND c.id = @id`,
    ).get(key);
    return c
      ? {
          context: { ...NONE, percent: c.percent, person: siteTextOrNull(c.person) },
          title: c.title,
          body: c.body,
        }
      : noTitle(NONE);
  },
  section: (db, key) => {
    const s = prepared<Key, { title: string; course: string }>(
      db,
      `SELECT s.title, c.title AS course FROM sections s JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
       WHERE s.site_id = @siteId AND s.id = @id`,
    ).get(key);
    return s ? { context: { ...NONE, course: siteText(s.course) }, title: s.title } : noTitle(NONE);
  },
  lecture: (db, key) => {
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
      context: { ...NONE, course: siteText(l.course), section: siteText(l.section), lectureState },
      title: l.title,
    };
  },
  instructor: (db, key, row) => {
    const n = prepared<Key, { n: number }>(
      db,
      'SELECT count(*) AS n FROM courses WHERE site_id = @siteId AND trim(instructor_name) = @id',
    ).get(key)!;
    // The row's key is the name as the courses hold it (build.ts).
    return { context: { ...NONE, courseCount: n.n }, title: row.item_id };
  },
  order: (db, _key, row, now) => {
    const o = getOrder(db, row.site_id, row.item_id, now);
    if (!o) return noTitle(NONE);
    // Its items' titles as Purchases names the order (payment-views.ts toOrderView).
    const state = { orderState: o.summaryState };
    return {
      context: billed(o.tradeNo, o.totalAmount, o.currency, o.createdAt, state),
      title: o.title,
    };
  },
  payment: (db, key, row, now) => {
    const p = getPayment(db, row.site_id, row.item_id, now);
    if (!p) return noTitle(NONE);
    const state = { paymentState: p.paymentState };
    const context = billed(p.tradeNo, p.amount, p.currency, p.createdAt, state);
    const body = prepared<Key, { body: string }>(
      db,
      `SELECT ${BODY_OF.payment('p')} AS body FROM payments p WHERE p.site_id = @siteId AND p.id = @id`,
    ).get(key);
    return { context, title: null, body: body?.body ?? null };
  },
  product: (db, key) =>
    titleAndTime(
      db,
      key,
      `SELECT t.title, t.delivered_at AS at, ${BODY_OF.product('t')} AS body
       FROM digital_products t WHERE t.site_id = @siteId AND t.id = @id`,
    ),
  event: (db, key) =>
    titleAndTime(
      db,
      key,
      `SELECT t.title, t.starts_at AS at, ${BODY_OF.event('t')} AS body
       FROM event_registrations t WHERE t.site_id = @siteId AND t.id = @id`,
    ),
  consulting: (db, key) => {
    const c = prepared<Key, { title: string; person: string; course: string | null; body: string }>(
      db,
      `SELECT s.title, s.consultant_name AS person, c.title AS course, ${BODY_OF.consulting('s')} AS body
       FROM consulting_services s LEFT JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
       WHERE s.site_id = @siteId AND s.id = @id`,
    ).get(key);
    return c
      ? {
          context: { ...NONE, person: siteText(c.person), course: siteTextOrNull(c.course) },
          title: c.title,
          body: c.body,
        }
      : noTitle(NONE);
  },
  notification: (db, key) =>
    titleAndTime(
      db,
      key,
      `SELECT t.title, t.created_at AS at, ${BODY_OF.notification('t')} AS body
       FROM notifications t WHERE t.site_id = @siteId AND t.id = @id`,
    ),
};

/** An order's or a payment's line: its number, amount, time and state. */
function billed(
  tradeNo: string,
  value: number,
  currency: string,
  at: string,
  state: Pick<SearchHitContext, 'orderState'> | Pick<SearchHitContext, 'paymentState'>,
): SearchHitContext {
  return { ...NONE, tradeNo, amount: { value, currency }, at, ...state };
}

/** A row whose context is only its time (a product, an event, a notification). */
function titleAndTime(db: Database, key: Key, sql: string): HitDetail {
  const r = prepared<Key, { title: string; at: string; body: string }>(db, sql).get(key);
  return r ? { context: { ...NONE, at: r.at }, title: r.title, body: r.body } : noTitle(NONE);
}
