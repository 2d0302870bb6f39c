import type { Database } from 'better-sqlite3';
import { externalUrl } from '../../common/external-url';
import { siteText, siteTextOrNull } from '../../common/site-values';
import type {
  DigitalProductView,
  EntitlementsView,
  EventRegistrationView,
} from '../../common/view-models';
import type { DigitalProductRecord, EventRegistrationRecord } from './records';
import { bool, prepared } from './statements';
import { cachedView, nextBoundary } from './view-cache';
import type { ReadableDB } from './handles';

// Entitlements are not orders (spec "Member API: viewer"): no order number, refund status or
// invoice here.

export function replaceDigitalProducts(
  db: Database,
  siteId: string,
  records: readonly DigitalProductRecord[],
): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM digital_products WHERE site_id = @siteId').run({
    siteId,
  });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO digital_products (site_id, id, position, title, description, format, delivered_at, expire_date, download_url)
     VALUES (@siteId, @id, @position, @title, @description, @format, @deliveredAt, @expireDate, @downloadUrl)`,
  );
  records.forEach((d, position) =>
    insert.run({
      siteId,
      id: d.id,
      position,
      title: d.title,
      description: d.description,
      format: d.format,
      deliveredAt: d.deliveredAt,
      expireDate: d.expireDate,
      downloadUrl: d.downloadUrl,
    }),
  );
}

export function replaceEventRegistrations(
  db: Database,
  siteId: string,
  records: readonly EventRegistrationRecord[],
): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM event_registrations WHERE site_id = @siteId').run({
    siteId,
  });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO event_registrations (site_id, id, position, event_id, title, starts_at, ends_at, location, is_online, join_url, ticket_name, registered_at)
     VALUES (@siteId, @id, @position, @eventId, @title, @startsAt, @endsAt, @location, @isOnline, @joinUrl, @ticketName, @registeredAt)`,
  );
  records.forEach((e, position) =>
    insert.run({
      siteId,
      id: e.id,
      position,
      eventId: e.eventId,
      title: e.title,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      location: e.location,
      isOnline: bool(e.isOnline),
      joinUrl: e.joinUrl,
      ticketName: e.ticketName,
      registeredAt: e.registeredAt,
    }),
  );
}

interface DigitalProductRow {
  id: string;
  title: string;
  description: string | null;
  format: string;
  delivered_at: string;
  expire_date: string | null;
  download_url: string | null;
}

interface EventRegistrationRow {
  id: string;
  event_id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  location: string | null;
  is_online: number;
  join_url: string | null;
  ticket_name: string;
  registered_at: string;
}

/**
 * Digital products in the service's order; events soonest first (upcoming before past ones is the
 * renderer's call).
 */
export function getEntitlements(db: ReadableDB, siteId: string, now: Date): EntitlementsView {
  return cachedView(db, 'entitlements', siteId, '', now, () => {
    const value = computeEntitlements(db, siteId, now);
    return {
      value,
      validUntil: nextBoundary(
        now.getTime(),
        value.eventRegistrations.map((e) => Date.parse(e.endsAt)),
      ),
    };
  });
}

function computeEntitlements(db: Database, siteId: string, now: Date): EntitlementsView {
  const t = now.getTime();
  const digitalProducts = prepared<{ siteId: string }, DigitalProductRow>(
    db,
    `SELECT id, title, description, format, delivered_at, expire_date, download_url FROM digital_products
     WHERE site_id = @siteId ORDER BY position`,
  )
    .all({ siteId })
    .map((d): DigitalProductView => ({
      id: d.id,
      title: siteText(d.title),
      description: siteTextOrNull(d.description, 20_000),
      format: siteText(d.format, 40),
      deliveredAt: d.delivered_at,
      expireDate: d.expire_date,
      // A link the app would not open is not offered (null), and the screen says why.
      downloadUrl: externalUrl(d.download_url),
      ...(d.download_url !== null && externalUrl(d.download_url) === null
        ? { urlRefused: true as const }
        : {}),
    }));
  const eventRegistrations = prepared<{ siteId: string }, EventRegistrationRow>(
    db,
    `SELECT id, event_id, title, starts_at, ends_at, location, is_online, join_url, ticket_name, registered_at
     FROM event_registrations WHERE site_id = @siteId ORDER BY starts_at, id`,
  )
    .all({ siteId })
    .map((e): EventRegistrationView => ({
      id: e.id,
      eventId: e.event_id,
      title: siteText(e.title),
      startsAt: e.starts_at,
      endsAt: e.ends_at,
      location: siteTextOrNull(e.location),
      isOnline: e.is_online === 1,
      joinUrl: externalUrl(e.join_url),
      ...(e.join_url !== null && externalUrl(e.join_url) === null
        ? { urlRefused: true as const }
        : {}),
      ticketName: siteText(e.ticket_name),
      registeredAt: e.registered_at,
      isPast: Date.parse(e.ends_at) <= t,
    }));
  return { digitalProducts, eventRegistrations };
}
