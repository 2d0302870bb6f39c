/**
 * A search hit as the screen shows and opens it. Pure: no DOM, no bridge (tested in Node).
 * - hitRoute: where opening it goes: a course (a section or lecture scrolled into view and
 *   highlighted), an order expanded in Purchases, an instructor's courses, the screen that lists an
 *   event, product, consulting service or notice, with that row scrolled into view and highlighted.
 * - contextParts: the words after its kind on the line under its title, "Intro to Data Analysis ·
 *   Completed".
 */
import type { SearchHit } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import type { Route } from '../../state/routes';

export function hitRoute(hit: SearchHit): Route {
  switch (hit.kind) {
    case 'course':
      return { screen: 'course', courseId: hit.id };
    case 'section':
      return hit.courseId
        ? { screen: 'course', courseId: hit.courseId, sectionId: hit.id }
        : { screen: 'library' };
    case 'lecture':
      return hit.courseId
        ? { screen: 'course', courseId: hit.courseId, lectureId: hit.id }
        : { screen: 'library' };
    case 'instructor':
      // Course rows hold their instructor's name: a search of it, courses only, lists theirs.
      return { screen: 'search', query: hit.id, kind: 'course', siteId: hit.siteId };
    case 'order':
      return { screen: 'billing', tradeNo: hit.id };
    case 'payment':
      return { screen: 'billing', tradeNo: hit.context.tradeNo ?? hit.title };
    case 'product':
    case 'event':
      return { screen: 'entitlements', itemId: hit.id };
    case 'consulting':
      return { screen: 'consulting', itemId: hit.id };
    case 'notification':
      return { screen: 'notifications', itemId: hit.id };
    default:
      return assertNever(hit.kind, 'search hit kind');
  }
}

/** The hit's title: a payment is named by its order's number. */
export function hitTitle(hit: SearchHit): string {
  return hit.title || (hit.context.tradeNo ?? '');
}

/** What the context line needs from the app: translations and formats, in the screen's language. */
export interface ContextWords {
  readonly t: (key: string, options?: Record<string, unknown>) => string;
  readonly money: (value: number, currency: string) => string;
  readonly date: (iso: string) => string;
  /** Translation keys of the billing states (features/billing/labels.ts). */
  readonly orderStateKey: (s: NonNullable<SearchHit['context']['orderState']>) => string;
  readonly paymentStateKey: (s: NonNullable<SearchHit['context']['paymentState']>) => string;
}

export function contextParts(hit: SearchHit, w: ContextWords): string[] {
  const c = hit.context;
  const parts: (string | null)[] = [];
  switch (hit.kind) {
    case 'course':
      parts.push(
        c.person,
        c.percent === null ? null : w.t('search.percent', { percent: Math.round(c.percent) }),
      );
      break;
    case 'section':
      parts.push(c.course);
      break;
    case 'lecture':
      parts.push(
        c.course,
        c.section,
        c.lectureState === null
          ? null
          : c.lectureState === 'unknown'
            ? w.t('common.unknown')
            : c.lectureState === 'locked'
              ? w.t('search.locked')
              : w.t(`course.state.${c.lectureState}`),
      );
      break;
    case 'instructor':
      parts.push(
        c.courseCount === null ? null : w.t('search.courseCount', { count: c.courseCount }),
      );
      break;
    case 'order':
    case 'payment':
      parts.push(
        // A payment's title is its order's number (hitTitle).
        hit.kind === 'order' ? c.tradeNo : null,
        c.amount ? w.money(c.amount.value, c.amount.currency) : null,
        c.orderState
          ? w.t(w.orderStateKey(c.orderState))
          : c.paymentState
            ? w.t(w.paymentStateKey(c.paymentState))
            : null,
        c.at ? w.date(c.at) : null,
      );
      break;
    case 'product':
    case 'event':
    case 'notification':
      parts.push(c.at ? w.date(c.at) : null);
      break;
    case 'consulting':
      parts.push(c.person, c.course);
      break;
    default:
      return assertNever(hit.kind, 'search hit kind');
  }
  return parts.filter((p): p is string => p !== null && p !== '');
}
