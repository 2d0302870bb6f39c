import { minutesLeft } from '../../common/facts';
import type { CourseDetail, EventRegistrationView, PaymentView } from '../../common/view-models';
import { CoreError } from '../errors';
import { inFourDigitYears } from './dates';
import { serializeCalendar, uuidV5, type CalendarEvent } from './ics';
import { displayAmount } from './money';
import { text } from './safe';
import { stringsFor, type ExportLanguage } from './strings';

/** Which site an event belongs to: its address keys the UID, its name goes into the text. */
export interface CalendarSite {
  readonly baseUrl: string;
  readonly label: string;
}

export interface CalendarFileOptions {
  readonly language: ExportLanguage;
  /** DTSTAMP: now. */
  readonly stamp: Date;
}

/**
 * The UID of an item's reminder: the same site, kind and id always give the same one (re-import
 * updates it).
 */
export function reminderUid(
  site: CalendarSite,
  kind: 'payment-deadline' | 'course-access-end' | 'event',
  id: string,
): string {
  return uuidV5(`${new URL(site.baseUrl).origin}\n${kind}\n${id}`);
}

/**
 * A site's date as an event's start, or a clear refusal: an unreadable date or one outside years
 * 0000-9999 (RFC 5545 §3.3.4).
 */
function eventStart(iso: unknown): Date {
  const d = new Date(typeof iso === 'string' ? iso : Number.NaN);
  if (Number.isNaN(d.getTime()) || !inFourDigitYears(d))
    throw new CoreError(
      'invalid-input',
      'The date the site gave for this cannot be put in a calendar.',
    );
  return d;
}

/**
 * "Pay by" for an unpaid ATM or convenience-store code: an instant at the deadline, with reminders
 * a day and two hours before. Only a code with a deadline can become a reminder.
 */
export function paymentDeadlineCalendar(
  payment: PaymentView,
  site: CalendarSite,
  options: CalendarFileOptions,
): string {
  const ins = payment.instructions;
  if (!ins || ins.expiredAt === null)
    throw new CoreError(
      'invalid-input',
      'This payment has no payment deadline to add to a calendar.',
    );
  const w = stringsFor(options.language);
  const amount = displayAmount(payment.amount, payment.currency, options.language);
  const title = payment.lineItems.map((li) => text(li.title)).join(', ') || text(payment.tradeNo);
  const bank =
    ins.bankName || ins.bankCode
      ? [ins.bankName, ins.bankCode && `(${ins.bankCode})`].filter(Boolean).join(' ')
      : null;
  const event: CalendarEvent = {
    uid: reminderUid(site, 'payment-deadline', payment.paymentId),
    start: eventStart(ins.expiredAt),
    summary: w.calendar.paymentSummary(amount, title),
    description: w.calendar.paymentDescription({
      method: payment.paymentType === 'atm' ? w.paymentType.atm : w.paymentType.cvs,
      code: text(ins.codeNo),
      bank,
      amount,
      tradeNo: payment.tradeNo,
      site: site.label,
    }),
    url: site.baseUrl,
    alarms: [
      { before: '-P1D', description: w.calendar.paymentAlarm },
      { before: '-PT2H', description: w.calendar.paymentAlarm },
    ],
  };
  return serializeCalendar([event], { stamp: options.stamp });
}

/**
 * Alarms before a course's access ends, as the app's own reminders (db/reminders.ts) plus one an
 * hour before; those already past when the file is written are left out by the writer (ics.ts).
 */
const ACCESS_ALARMS = ['-P30D', '-P7D', '-P1D', '-PT1H'] as const;

/**
 * The end of a course's access: an instant at expireDate, with reminders before it that are still
 * to come, and what is left to watch as the file is written ("3 lectures, 57 min").
 */
export function courseAccessEndCalendar(
  course: CourseDetail,
  site: CalendarSite,
  options: CalendarFileOptions,
): string {
  if (course.hasLifetimeAccess || course.expireDate === null)
    throw new CoreError(
      'invalid-input',
      'This course has no access end date to add to a calendar.',
    );
  const w = stringsFor(options.language);
  const event: CalendarEvent = {
    uid: reminderUid(site, 'course-access-end', course.courseId),
    start: eventStart(course.expireDate),
    summary: w.calendar.accessSummary(text(course.title)),
    description: w.calendar.accessDescription({
      title: text(course.title),
      site: site.label,
      progress: Math.round(course.percent),
      lectures: Math.max(0, course.lecturesLeft),
      minutes: course.lecturesLeft > 0 ? Math.max(1, minutesLeft(course.secondsLeft)) : 0,
    }),
    url: site.baseUrl,
    alarms: ACCESS_ALARMS.map((before) => ({ before, description: w.calendar.accessAlarm })),
  };
  return serializeCalendar([event], { stamp: options.stamp });
}

/**
 * An event the student registered for, from its start to its end, with reminders a day and an hour
 * before. Online:
 * the join link (already checked: https, on no credentials; externalUrl) is the event's address;
 * otherwise the school's.
 */
export function eventCalendar(
  event: EventRegistrationView,
  site: CalendarSite,
  options: CalendarFileOptions,
): string {
  const w = stringsFor(options.language);
  const start = eventStart(event.startsAt);
  const ends = eventStart(event.endsAt);
  const where = event.isOnline
    ? w.calendar.eventOnline
    : event.location !== null
      ? text(event.location)
      : null;
  const calendarEvent: CalendarEvent = {
    uid: reminderUid(site, 'event', event.id),
    start,
    // A site's end before its start is not trusted: the event is then an instant at its start
    // (§3.6.1).
    ...(ends.getTime() >= start.getTime() ? { end: ends } : {}),
    summary: text(event.title),
    description: w.calendar.eventDescription({
      where: where ?? '—',
      ticket: text(event.ticketName),
      site: site.label,
      join: event.isOnline ? event.joinUrl : null,
    }),
    ...(where !== null && !event.isOnline ? { location: where } : {}),
    url: event.isOnline && event.joinUrl ? event.joinUrl : site.baseUrl,
    busy: true,
    alarms: [
      { before: '-P1D', description: w.calendar.eventAlarm },
      { before: '-PT1H', description: w.calendar.eventAlarm },
    ],
  };
  return serializeCalendar([calendarEvent], { stamp: options.stamp });
}
