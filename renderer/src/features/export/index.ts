/** The export feature's one public entry: what the shell and the other features may use of it. */
export {
  CourseAccessCalendarButton,
  EventCalendarButton,
  ExportOrdersButton,
  PaymentDeadlineCalendarButton,
  ReceiptButton,
  YearReceiptsButton,
} from './ExportButtons';
export { FileActionButton, fileLanguage, receiveFile } from './FileActionButton';
