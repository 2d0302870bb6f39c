import type { Database } from 'better-sqlite3';
import {
  FIRST_PAGE,
  jsonIds,
  keyset,
  pageParams,
  stmt,
  toPage,
  type Page,
  type PageRequest,
} from './content-sql';
import { deliveredCourseExists } from './content-courses';

/** Data access for digital products, events and consulting services (migration 002). */

export interface DeliveredProductRow {
  id: string; // delivery id
  product_id: string;
  title: string;
  description: string | null;
  format: string;
  download_url: string | null;
  delivered_at: number;
  expire_at: number | null;
}

export function listDeliveredProducts(db: Database, req: PageRequest): Page<DeliveredProductRow> {
  const rows = stmt<object, DeliveredProductRow>(
    db,
    `SELECT d.id, d.product_id, p.title, p.description, p.format, p.download_url, d.delivered_at, d.expire_at
       FROM product_deliveries d JOIN digital_products p ON p.id = d.product_id
      WHERE d.school_id = :school AND d.user_id = :user AND ${keyset('d.delivered_at', 'd.id')}
      ORDER BY d.delivered_at DESC, d.id DESC LIMIT :limit`,
  ).all(pageParams(req));
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM product_deliveries WHERE school_id = :school AND user_id = :user',
  ).get({
    school: req.schoolId,
    user: req.userId,
  })!.n;
  return toPage(rows, req, total);
}

export interface EventRow {
  id: string;
  school_id: string;
  title: string;
  description: string | null;
  starts_at: number;
  ends_at: number;
  location: string | null;
  is_online: number;
  join_url: string | null;
  is_published: number;
  created_at: number;
}

export interface EventRegistrationRow {
  id: string;
  event_id: string;
  title: string;
  starts_at: number;
  ends_at: number;
  location: string | null;
  is_online: number;
  join_url: string | null;
  ticket_name: string;
  registered_at: number;
}

export function listEventRegistrations(db: Database, req: PageRequest): Page<EventRegistrationRow> {
  const rows = stmt<object, EventRegistrationRow>(
    db,
    `SELECT r.id, r.event_id, e.title, e.starts_at, e.ends_at, e.location, e.is_online, e.join_url, r.ticket_name, r.registered_at
       FROM event_registrations r JOIN events e ON e.id = r.event_id
      WHERE r.school_id = :school AND r.user_id = :user AND ${keyset('r.registered_at', 'r.id')}
      ORDER BY r.registered_at DESC, r.id DESC LIMIT :limit`,
  ).all(pageParams(req));
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM event_registrations WHERE school_id = :school AND user_id = :user',
  ).get({
    school: req.schoolId,
    user: req.userId,
  })!.n;
  return toPage(rows, req, total);
}

export function listUpcomingPublicEvents(
  db: Database,
  schoolId: string,
  now: number,
  limit: number,
): EventRow[] {
  return stmt<object, EventRow>(
    db,
    'SELECT * FROM events WHERE school_id = :school AND is_published = 1 AND ends_at > :now ORDER BY starts_at, id LIMIT :limit',
  ).all({ school: schoolId, now, limit });
}

export interface ConsultingServiceRow {
  id: string;
  school_id: string;
  course_id: string;
  title: string;
  description: string | null;
  duration_minutes: number;
  consultant_name: string;
  created_at: number;
}

/**
 * Services offered against the viewer's delivered courses (spec "Consulting service": not a
 * purchase list), in one statement per query: the school's services in keyset order (index
 * consulting_services_by_school, migration 005), each kept when the viewer's enrolment in its
 * course is delivered (content-courses deliveredCourseExists). No list of enrolled course ids goes
 * through JavaScript, and a member with hundreds of enrolments costs no more.
 */
export function listConsultingServicesForMember(
  db: Database,
  req: PageRequest & { readonly now: number },
): Page<ConsultingServiceRow> {
  const base = { school: req.schoolId, user: req.userId, now: req.now };
  const rows = stmt<object, ConsultingServiceRow>(db, CONSULTING_PAGE_SQL).all({
    ...base,
    limit: req.first + 1,
    afterT: (req.after ?? FIRST_PAGE).t,
    afterId: (req.after ?? FIRST_PAGE).id,
  });
  const total = stmt<object, { n: number }>(
    db,
    `SELECT count(*) AS n FROM consulting_services cs WHERE cs.school_id = :school AND ${deliveredCourseExists('cs.course_id')}`,
  ).get(base)!.n;
  return toPage(rows, req, total);
}

/** Exported for the query-plan test. */
export const CONSULTING_PAGE_SQL = `SELECT cs.* FROM consulting_services cs
      WHERE cs.school_id = :school AND ${keyset('cs.created_at', 'cs.id')} AND ${deliveredCourseExists('cs.course_id')}
      ORDER BY cs.created_at DESC, cs.id DESC LIMIT :limit`;

export interface SlotRow {
  service_id: string;
  weekday: number;
  start_time: string;
  end_time: string;
  time_zone: string;
}

export interface MeetingRow {
  id: string;
  service_id: string;
  starts_at: number;
  ends_at: number;
}

export function slotsForServices(db: Database, serviceIds: readonly string[]): SlotRow[] {
  return stmt<object, SlotRow>(
    db,
    `SELECT service_id, weekday, start_time, end_time, time_zone FROM consulting_slots
      WHERE service_id IN (SELECT value FROM json_each(:ids)) ORDER BY service_id, weekday, start_time`,
  ).all({ ids: jsonIds(serviceIds) });
}

/** Meetings of anyone on the services; the owner column is deliberately not selected. */
export function meetingsForServices(db: Database, serviceIds: readonly string[]): MeetingRow[] {
  return stmt<object, MeetingRow>(
    db,
    `SELECT id, service_id, starts_at, ends_at FROM consulting_meetings
      WHERE service_id IN (SELECT value FROM json_each(:ids)) ORDER BY service_id, starts_at, id`,
  ).all({ ids: jsonIds(serviceIds) });
}

// ---- operator access
// ---------------------------------------------------------------------------------------

export function listEvents(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: EventRow[]; total: number } {
  const rows = stmt<object, EventRow>(
    db,
    'SELECT * FROM events WHERE school_id = :school ORDER BY starts_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all({
    school: schoolId,
    limit,
    offset,
  });
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM events WHERE school_id = :school',
  ).get({ school: schoolId })!.n;
  return { rows, total };
}

export function getEvent(db: Database, schoolId: string, id: string): EventRow | undefined {
  return stmt<object, EventRow>(
    db,
    'SELECT * FROM events WHERE school_id = :school AND id = :id',
  ).get({ school: schoolId, id });
}

export function insertEvent(db: Database, row: EventRow): void {
  stmt(
    db,
    `INSERT INTO events (id, school_id, title, description, starts_at, ends_at, location, is_online, join_url, is_published, created_at)
     VALUES (:id, :school_id, :title, :description, :starts_at, :ends_at, :location, :is_online, :join_url, :is_published, :created_at)`,
  ).run(row);
}

export function deleteEvent(db: Database, schoolId: string, id: string): boolean {
  return (
    stmt(db, 'DELETE FROM events WHERE school_id = :school AND id = :id').run({
      school: schoolId,
      id,
    }).changes > 0
  );
}

export interface DigitalProductRow {
  id: string;
  school_id: string;
  title: string;
  description: string | null;
  format: string;
  download_url: string | null;
  price: number;
  currency: string;
  created_at: number;
}

export function listDigitalProducts(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: DigitalProductRow[]; total: number } {
  const rows = stmt<object, DigitalProductRow>(
    db,
    'SELECT * FROM digital_products WHERE school_id = :school ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all({ school: schoolId, limit, offset });
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM digital_products WHERE school_id = :school',
  ).get({ school: schoolId })!.n;
  return { rows, total };
}

export function getDigitalProduct(
  db: Database,
  schoolId: string,
  id: string,
): DigitalProductRow | undefined {
  return stmt<object, DigitalProductRow>(
    db,
    'SELECT * FROM digital_products WHERE school_id = :school AND id = :id',
  ).get({ school: schoolId, id });
}

export function insertDigitalProduct(db: Database, row: DigitalProductRow): void {
  stmt(
    db,
    `INSERT INTO digital_products (id, school_id, title, description, format, download_url, price, currency, created_at)
     VALUES (:id, :school_id, :title, :description, :format, :download_url, :price, :currency, :created_at)`,
  ).run(row);
}

/** The member's delivery of a product, if any (one per member and product). */
export function findDelivery(
  db: Database,
  schoolId: string,
  userId: string,
  productId: string,
): { id: string; expire_at: number | null } | undefined {
  return stmt<object, { id: string; expire_at: number | null }>(
    db,
    'SELECT id, expire_at FROM product_deliveries WHERE school_id = :school AND user_id = :user AND product_id = :product ORDER BY delivered_at DESC LIMIT 1',
  ).get({ school: schoolId, user: userId, product: productId });
}

/**
 * Gives an ended delivery a new access window, in place (the member keeps one delivery of the
 * product).
 */
export function renewDelivery(
  db: Database,
  id: string,
  deliveredAt: number,
  expireAt: number | null,
): void {
  stmt(
    db,
    'UPDATE product_deliveries SET delivered_at = :deliveredAt, expire_at = :expireAt WHERE id = :id',
  ).run({ id, deliveredAt, expireAt });
}

export function insertDelivery(
  db: Database,
  row: {
    id: string;
    school_id: string;
    user_id: string;
    product_id: string;
    delivered_at: number;
    expire_at: number | null;
  },
): void {
  stmt(
    db,
    `INSERT INTO product_deliveries (id, school_id, user_id, product_id, delivered_at, expire_at)
     VALUES (:id, :school_id, :user_id, :product_id, :delivered_at, :expire_at)`,
  ).run(row);
}

export function insertEventRegistration(
  db: Database,
  row: {
    id: string;
    school_id: string;
    user_id: string;
    event_id: string;
    ticket_name: string;
    registered_at: number;
  },
): void {
  stmt(
    db,
    `INSERT INTO event_registrations (id, school_id, user_id, event_id, ticket_name, registered_at)
     VALUES (:id, :school_id, :user_id, :event_id, :ticket_name, :registered_at)`,
  ).run(row);
}

export function insertConsultingService(db: Database, row: ConsultingServiceRow): void {
  stmt(
    db,
    `INSERT INTO consulting_services (id, school_id, course_id, title, description, duration_minutes, consultant_name, created_at)
     VALUES (:id, :school_id, :course_id, :title, :description, :duration_minutes, :consultant_name, :created_at)`,
  ).run(row);
}

export function insertSlot(db: Database, row: SlotRow): void {
  stmt(
    db,
    `INSERT INTO consulting_slots (service_id, weekday, start_time, end_time, time_zone)
     VALUES (:service_id, :weekday, :start_time, :end_time, :time_zone)`,
  ).run(row);
}

export function insertMeeting(db: Database, row: MeetingRow & { user_id: string }): void {
  stmt(
    db,
    'INSERT INTO consulting_meetings (id, service_id, user_id, starts_at, ends_at) VALUES (:id, :service_id, :user_id, :starts_at, :ends_at)',
  ).run(row);
}

/** The member's delivery of a product (the latest one), for the product file route. */
export function getDelivery(
  db: Database,
  schoolId: string,
  userId: string,
  productId: string,
): { delivered_at: number; expire_at: number | null } | undefined {
  return stmt<object, { delivered_at: number; expire_at: number | null }>(
    db,
    `SELECT delivered_at, expire_at FROM product_deliveries
      WHERE school_id = :school AND user_id = :user AND product_id = :product ORDER BY delivered_at DESC LIMIT 1`,
  ).get({ school: schoolId, user: userId, product: productId });
}

/** One consulting service of the school, by id (the student area's page). */
export function getConsultingService(
  db: Database,
  schoolId: string,
  id: string,
): ConsultingServiceRow | undefined {
  return stmt<object, ConsultingServiceRow>(
    db,
    'SELECT * FROM consulting_services WHERE school_id = :school AND id = :id',
  ).get({
    school: schoolId,
    id,
  });
}
