import { CalendarPlus, Download, Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { FileActionButton, fileLanguage } from './FileActionButton';

/** Purchases: the whole history as a CSV file for a spreadsheet. */
export function ExportOrdersButton({ siteId }: { readonly siteId: string }) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() => call('export:orders-csv', { siteId, language: fileLanguage(i18n.language) })}
      label={t('export.ordersCsv')}
      icon={<Download aria-hidden="true" size={16} className="icon" />}
      testId="export-orders-csv"
    />
  );
}

/**
 * One order: a printable receipt (PDF in the app, the browser's print view in the browser host).
 */
export function ReceiptButton({
  siteId,
  tradeNo,
}: {
  readonly siteId: string;
  readonly tradeNo: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() => call('export:receipt', { siteId, tradeNo, language: fileLanguage(i18n.language) })}
      label={t('export.receipt')}
      ariaLabel={t('export.receiptFor', { tradeNo })}
      icon={<Printer aria-hidden="true" size={14} className="icon" />}
      small
      testId="receipt"
    />
  );
}

/** Every receipt of a year's paid orders in one printable file, for reimbursement. */
export function YearReceiptsButton({
  siteId,
  year,
}: {
  readonly siteId: string;
  readonly year: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() =>
        call('export:year-receipts', { siteId, year, language: fileLanguage(i18n.language) })
      }
      label={t('export.yearReceipts', { year })}
      icon={<Printer aria-hidden="true" size={14} className="icon" />}
      small
      testId="year-receipts"
    />
  );
}

/** An unpaid code's deadline as a calendar reminder (.ics). */
export function PaymentDeadlineCalendarButton({
  siteId,
  paymentId,
  code,
}: {
  readonly siteId: string;
  readonly paymentId: string;
  readonly code: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() =>
        call('calendar:payment-deadline', {
          siteId,
          paymentId,
          language: fileLanguage(i18n.language),
        })
      }
      label={t('calendar.add')}
      ariaLabel={t('calendar.addPaymentDeadline', { code })}
      icon={<CalendarPlus aria-hidden="true" size={14} className="icon" />}
      small
      testId="calendar-payment"
    />
  );
}

/** The day a course's access ends as a calendar reminder (.ics). */
export function CourseAccessCalendarButton({
  siteId,
  courseId,
  title,
}: {
  readonly siteId: string;
  readonly courseId: string;
  readonly title: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() =>
        call('calendar:course-access-end', {
          siteId,
          courseId,
          language: fileLanguage(i18n.language),
        })
      }
      label={t('calendar.add')}
      ariaLabel={t('calendar.addAccessEnd', { title })}
      icon={<CalendarPlus aria-hidden="true" size={14} className="icon" />}
      small
      testId="calendar-course"
    />
  );
}

/**
 * An event the student registered for, as a calendar event (.ics) with its time, place and
 * reminders.
 */
export function EventCalendarButton({
  siteId,
  registrationId,
  title,
}: {
  readonly siteId: string;
  readonly registrationId: string;
  readonly title: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <FileActionButton
      run={() =>
        call('calendar:event', { siteId, registrationId, language: fileLanguage(i18n.language) })
      }
      label={t('calendar.add')}
      ariaLabel={t('calendar.addEvent', { title })}
      icon={<CalendarPlus aria-hidden="true" size={14} className="icon" />}
      small
      testId="calendar-event"
    />
  );
}
