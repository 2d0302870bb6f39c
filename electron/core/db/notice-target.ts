/**
 * Where a notice leads in the saved copy: its url read as one of the site's student pages
 * (common/notice-links.ts), the page's id looked up in this site's rows. One indexed or small
 * statement per open; nothing here is trusted beyond what the sync already checked.
 */
import { siteLinkUrl } from '../../common/external-url';
import { readNoticeLink } from '../../common/notice-links';
import type { NoticeTarget } from '../../common/view-models';
import { prepared } from './statements';
import type { ReadableDB } from './handles';

/** The notice's link and read state, or null when this site has no such notice. */
export function getNoticeForOpening(
  db: ReadableDB,
  siteId: string,
  id: string,
): { readonly url: string | null; readonly unread: boolean } | null {
  const row = prepared<
    { siteId: string; id: string },
    { url: string | null; read_at: string | null }
  >(db, 'SELECT url, read_at FROM notifications WHERE site_id = @siteId AND id = @id').get({
    siteId,
    id,
  });
  return row ? { url: row.url, unread: row.read_at === null } : null;
}

export function findNoticeTarget(
  db: ReadableDB,
  siteId: string,
  baseUrl: string,
  url: string | null,
): NoticeTarget {
  const link = readNoticeLink(url, baseUrl);
  if (!link) return { kind: 'none', reason: 'no-link' };
  const missing: NoticeTarget = { kind: 'none', reason: 'not-in-copy' };
  switch (link.kind) {
    case 'course': {
      const course = prepared<{ siteId: string; slug: string }, { id: string }>(
        db,
        'SELECT id FROM courses WHERE site_id = @siteId AND slug = @slug ORDER BY position LIMIT 1',
      ).get({ siteId, slug: link.slug });
      if (!course) return missing;
      const lecture =
        link.lectureId === null
          ? undefined
          : prepared<{ siteId: string; courseId: string; id: string }, { id: string }>(
              db,
              'SELECT id FROM lectures WHERE site_id = @siteId AND course_id = @courseId AND id = @id',
            ).get({ siteId, courseId: course.id, id: link.lectureId });
      return { kind: 'course', courseId: course.id, lectureId: lecture?.id ?? null };
    }
    case 'order': {
      const order = prepared<{ siteId: string; tradeNo: string }, { trade_no: string }>(
        db,
        'SELECT trade_no FROM payments WHERE site_id = @siteId AND trade_no = @tradeNo LIMIT 1',
      ).get({ siteId, tradeNo: link.tradeNo });
      return order ? { kind: 'order', tradeNo: order.trade_no } : missing;
    }
    case 'event': {
      const r = prepared<
        { siteId: string; eventId: string },
        {
          id: string;
          title: string;
          starts_at: string;
          ends_at: string;
          is_online: number;
          location: string | null;
          join_url: string | null;
        }
      >(
        db,
        `SELECT id, title, starts_at, ends_at, is_online, location, join_url FROM event_registrations
          WHERE site_id = @siteId AND event_id = @eventId ORDER BY position LIMIT 1`,
      ).get({ siteId, eventId: link.eventId });
      return r
        ? {
            kind: 'event',
            registrationId: r.id,
            title: r.title,
            startsAt: r.starts_at,
            endsAt: r.ends_at,
            isOnline: r.is_online === 1,
            location: r.location,
            // Offered only when this site may send it (an Internet school may not name this
            // computer or its network).
            joinUrl: siteLinkUrl(r.join_url, baseUrl),
          }
        : missing;
    }
    case 'consulting': {
      const service = prepared<{ siteId: string; id: string }, { id: string }>(
        db,
        'SELECT id FROM consulting_services WHERE site_id = @siteId AND id = @id',
      ).get({ siteId, id: link.serviceId });
      return service ? { kind: 'consulting', serviceId: service.id } : missing;
    }
  }
}
