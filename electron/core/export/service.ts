import type { SaveOutcome } from '../../common/files-and-invites';
import type { CoreHandlers, IpcHandlers } from '../../common/ipc-contract';
import { BROWSER_HOST_PATHS } from '../../common/ipc-names';
import { withResults } from '../../common/result';
import type { SiteSummary } from '../../common/view-models';
import {
  getCourseDetail,
  getCourseProgressRows,
  getEntitlements,
  getOrder,
  getPayment,
  getProfile,
  getProgressSummary,
  type ReadableDB,
} from '../db/index';
import { CoreError } from '../errors';
import { entitlementLinksForSite } from '../net/external-url';
import { courseAccessEndCalendar, eventCalendar, paymentDeadlineCalendar } from './calendar';
import { purchaseHistoryCsv } from './csv';
import { localTimeZone } from './dates';
import { progressCsv, progressReportHtml } from './progress';
import { receiptHtml } from './receipt';
import type { ExportLanguage } from './strings';
import { receiptOrdersOfYear, yearReceiptsHtml } from './year-receipts';

/**
 * A file the student asked for, made from the offline database. The host decides where it goes
 * (FileDelivery):
 * nothing here touches the file system.
 */
export interface ExportFile {
  /**
   * 'receipt' is an HTML document the host turns into a PDF (Electron) or a print view (browser
   * host).
   */
  readonly kind: 'csv' | 'ics' | 'receipt' | 'md' | 'mcpb';
  /** A suggested name, safe on every file system (letters, digits, '.', '_', '-'). */
  readonly fileName: string;
  readonly mimeType: string;
  readonly body: string;
  /** A binary file's content (the assistant's bundle, a zip); `body` is then empty. */
  readonly bytes?: Uint8Array;
  /**
   * Receipts only: the same document for a browser's print view, loading the browser host's print
   * script (BROWSER_HOST_PATHS.print) that opens the print dialog; `body` has no script at all (PDF
   * output).
   */
  readonly printView?: string;
}

/**
 * The host's way of handing a file to the student: a save dialog (Electron) or a download (browser
 * host).
 */
export type FileDelivery = (file: ExportFile) => Promise<SaveOutcome>;

export type ExportChannel =
  | 'export:orders-csv'
  | 'export:receipt'
  | 'export:year-receipts'
  | 'export:progress-csv'
  | 'export:progress-report'
  | 'calendar:payment-deadline'
  | 'calendar:course-access-end'
  | 'calendar:event';

export interface ExportDeps {
  readonly db: ReadableDB;
  readonly now: () => Date;
  readonly site: (siteId: string) => SiteSummary;
  readonly deliver: FileDelivery;
  /** The zone dates are written in (default: this computer's). */
  readonly timeZone?: () => string;
  /**
   * Builds the purchase history's CSV (null: no purchases). The app hands it to the database
   * writer's thread (worker-contract.ts `export:orders-csv`); without it, it is built here on `db`.
   */
  readonly purchaseHistoryCsv?: (input: {
    readonly siteId: string;
    readonly now: Date;
    readonly language: ExportLanguage;
    readonly timeZone: string;
  }) => Promise<string | null>;
}

/**
 * Letters, digits, '.', '_' and '-' only, at most 80 characters: a name no file system or shell
 * misreads.
 */
export function safeFileName(stem: string, extension: string): string {
  const clean = stem
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    // No '..' (a name that reads like a parent folder) and no leading dot (a hidden file).
    .replace(/\.{2,}/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 80);
  return `${clean || 'file'}.${extension}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The zone exported dates are written in. */
const zone = (deps: ExportDeps) => deps.timeZone?.() ?? localTimeZone();

type PurchaseChannel = 'export:orders-csv' | 'export:receipt' | 'export:year-receipts';
type ProgressChannel = 'export:progress-csv' | 'export:progress-report';
type CalendarChannel = Extract<ExportChannel, `calendar:${string}`>;

/** The purchase history as CSV, and receipts (one order's, or a year's) as print pages. */
function purchaseExports(deps: ExportDeps): Pick<CoreHandlers, PurchaseChannel> {
  return {
    'export:orders-csv': async ({ siteId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const input = { siteId, now, language, timeZone: zone(deps) };
      const body = deps.purchaseHistoryCsv
        ? await deps.purchaseHistoryCsv(input)
        : purchaseHistoryCsv(deps.db, siteId, now, input);
      if (body === null)
        throw new CoreError(
          'not-found',
          'There are no purchases to export yet. Sync, then try again.',
        );
      return deps.deliver({
        kind: 'csv',
        fileName: safeFileName(`purchases-${new URL(site.baseUrl).hostname}-${day(now)}`, 'csv'),
        mimeType: 'text/csv; charset=utf-8',
        body,
      });
    },
    'export:receipt': async ({ siteId, tradeNo, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const order = getOrder(deps.db, siteId, tradeNo, now);
      if (!order)
        throw new CoreError(
          'not-found',
          'This order is not in your offline copy. Sync, then try again.',
        );
      const options = {
        language,
        timeZone: zone(deps),
        site: { label: site.label, baseUrl: site.baseUrl },
        generatedAt: now,
      };
      const body = receiptHtml(order, options);
      const printView = receiptHtml(order, { ...options, script: BROWSER_HOST_PATHS.print });
      return deps.deliver({
        kind: 'receipt',
        fileName: safeFileName(`receipt-${tradeNo}`, 'pdf'),
        mimeType: 'text/html; charset=utf-8',
        body,
        printView,
      });
    },
    'export:year-receipts': async ({ siteId, year, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const orders = receiptOrdersOfYear(deps.db, siteId, year, now);
      if (orders.length === 0)
        throw new CoreError(
          'not-found',
          `There are no paid orders from ${year} in your offline copy.`,
        );
      const options = {
        language,
        timeZone: zone(deps),
        site: { label: site.label, baseUrl: site.baseUrl },
        generatedAt: now,
      };
      return deps.deliver({
        kind: 'receipt',
        fileName: safeFileName(`receipts-${year}-${new URL(site.baseUrl).hostname}`, 'pdf'),
        mimeType: 'text/html; charset=utf-8',
        body: yearReceiptsHtml(orders, year, options),
        printView: yearReceiptsHtml(orders, year, { ...options, script: BROWSER_HOST_PATHS.print }),
      });
    },
  };
}

/** The courses' progress as CSV, and as a printable report. */
function progressExports(deps: ExportDeps): Pick<CoreHandlers, ProgressChannel> {
  return {
    'export:progress-csv': async ({ siteId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const courses = getCourseProgressRows(deps.db, siteId);
      if (courses.length === 0)
        throw new CoreError(
          'not-found',
          'There are no courses to export yet. Sync, then try again.',
        );
      return deps.deliver({
        kind: 'csv',
        fileName: safeFileName(`progress-${new URL(site.baseUrl).hostname}-${day(now)}`, 'csv'),
        mimeType: 'text/csv; charset=utf-8',
        body: progressCsv(courses, { language, timeZone: zone(deps), site }),
      });
    },
    'export:progress-report': async ({ siteId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const timeZone = zone(deps);
      const courses = getCourseProgressRows(deps.db, siteId);
      if (courses.length === 0)
        throw new CoreError(
          'not-found',
          'There are no courses to report yet. Sync, then try again.',
        );
      const summary = getProgressSummary(deps.db, siteId, now, timeZone);
      let student: { name: string; email: string } | null = null;
      try {
        const p = getProfile(deps.db, siteId);
        student = { name: p.name, email: p.email };
      } catch {
        // No profile synced yet: the page goes out without the student's name.
      }
      const options = {
        language,
        timeZone,
        site: { label: site.label, baseUrl: site.baseUrl },
        student,
        generatedAt: now,
      };
      return deps.deliver({
        kind: 'receipt',
        fileName: safeFileName(`progress-${new URL(site.baseUrl).hostname}-${day(now)}`, 'pdf'),
        mimeType: 'text/html; charset=utf-8',
        body: progressReportHtml(courses, summary, options),
        printView: progressReportHtml(courses, summary, {
          ...options,
          script: BROWSER_HOST_PATHS.print,
        }),
      });
    },
  };
}

/** Calendar reminders (RFC 5545): a payment's deadline, a course's access end, an event. */
function calendarExports(deps: ExportDeps): Pick<CoreHandlers, CalendarChannel> {
  return {
    'calendar:payment-deadline': async ({ siteId, paymentId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const payment = getPayment(deps.db, siteId, paymentId, now);
      if (!payment)
        throw new CoreError(
          'not-found',
          'This payment is not in your offline copy. Sync, then try again.',
        );
      if (payment.paymentState !== 'not_paid' || payment.instructions?.isExpired !== false) {
        throw new CoreError(
          'invalid-input',
          'This payment code can no longer be paid, so there is no deadline to add.',
        );
      }
      const body = paymentDeadlineCalendar(payment, site, { language, stamp: now });
      return deps.deliver({
        kind: 'ics',
        fileName: safeFileName(`payment-deadline-${payment.tradeNo}`, 'ics'),
        mimeType: 'text/calendar; charset=utf-8',
        body,
      });
    },
    'calendar:course-access-end': async ({ siteId, courseId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const course = getCourseDetail(deps.db, siteId, courseId, now);
      if (course.isExpired)
        throw new CoreError(
          'invalid-input',
          'Access to this course has already ended, so there is no date to add.',
        );
      const body = courseAccessEndCalendar(course, site, { language, stamp: now });
      return deps.deliver({
        kind: 'ics',
        fileName: safeFileName(`course-access-${course.slug || course.courseId}`, 'ics'),
        mimeType: 'text/calendar; charset=utf-8',
        body,
      });
    },
    'calendar:event': async ({ siteId, registrationId, language }) => {
      const site = deps.site(siteId);
      const now = deps.now();
      const event = entitlementLinksForSite(
        getEntitlements(deps.db, siteId, now),
        site.baseUrl,
      ).eventRegistrations.find((e) => e.id === registrationId);
      if (!event)
        throw new CoreError(
          'not-found',
          'This event is not in your offline copy. Sync, then try again.',
        );
      if (event.isPast)
        throw new CoreError(
          'invalid-input',
          'This event has already ended, so there is nothing to add to a calendar.',
        );
      const body = eventCalendar(event, site, { language, stamp: now });
      return deps.deliver({
        kind: 'ics',
        fileName: safeFileName(`event-${event.startsAt.slice(0, 10)}-${event.eventId}`, 'ics'),
        mimeType: 'text/calendar; charset=utf-8',
        body,
      });
    },
  };
}

export function createExportHandlers(deps: ExportDeps): Pick<IpcHandlers, ExportChannel> {
  return withResults({
    ...purchaseExports(deps),
    ...progressExports(deps),
    ...calendarExports(deps),
  });
}
