import type { DocumentNode } from 'graphql';
import * as documents from '../../../electron/core/graphql/documents';

/** The app's sync documents (electron/core/graphql/documents.ts), by export name. */
const isDocument = (v: unknown): v is DocumentNode =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Document';
export const APP_DOCUMENTS = Object.entries(documents).filter((e): e is [string, DocumentNode] =>
  isDocument(e[1]),
);

/** The variables the app sends with each query: a first page of the size it asks for. */
export const QUERY_VARIABLES: Record<string, Record<string, unknown>> = {
  CoursesQuery: { first: documents.PAGE_SIZE.courses },
  DigitalProductsQuery: { first: documents.PAGE_SIZE.digitalProducts },
  ConsultingServicesQuery: { first: documents.PAGE_SIZE.consultingServices },
  EventRegistrationsQuery: { first: documents.PAGE_SIZE.eventRegistrations },
  PaymentsQuery: { first: documents.PAGE_SIZE.payments },
  NotificationsQuery: { first: documents.PAGE_SIZE.notifications },
};
