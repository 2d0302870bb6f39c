import type { Database } from 'better-sqlite3';
import { siteNumber, siteText, siteTextOrNull } from '../../common/site-values';
import type { ConsultingServiceView } from '../../common/view-models';
import type { ConsultingServiceRecord } from './records';
import { json, prepared } from './statements';
import type { ReadableDB } from './handles';

/**
 * Consulting services offered against the viewer's courses. `meetings` are everyone's reservations
 * on the service and no field says which are the viewer's (spec "Consulting service"): only their
 * times are kept, shown as booked times, never as the viewer's bookings.
 */
export function replaceConsultingServices(
  db: Database,
  siteId: string,
  records: readonly ConsultingServiceRecord[],
): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM consulting_services WHERE site_id = @siteId').run({
    siteId,
  });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO consulting_services (site_id, id, position, title, description, duration_minutes, consultant_name, course_id, slots, booked_times)
     VALUES (@siteId, @id, @position, @title, @description, @durationMinutes, @consultantName, @courseId, @slots, @bookedTimes)`,
  );
  records.forEach((c, position) =>
    insert.run({
      siteId,
      id: c.id,
      position,
      title: c.title,
      description: c.description,
      durationMinutes: c.durationMinutes,
      consultantName: c.consultantName,
      courseId: c.courseId,
      slots: json(
        c.slots.map((s) => ({
          weekday: s.weekday,
          startTime: s.startTime,
          endTime: s.endTime,
          timeZone: s.timeZone,
        })),
      ),
      bookedTimes: json(
        c.meetings
          .map((m) => ({ startsAt: m.startsAt, endsAt: m.endsAt }))
          .sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0)),
      ),
    }),
  );
}

interface ConsultingRow {
  id: string;
  title: string;
  description: string | null;
  duration_minutes: number;
  consultant_name: string;
  course_id: string;
  course_title: string | null;
  slots: string;
  booked_times: string;
}

/** A stored JSON list of objects (the site's value as it came); anything else is an empty list. */
function jsonObjects(text: string): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(value)
    ? value.filter(
        (v): v is Record<string, unknown> =>
          typeof v === 'object' && v !== null && !Array.isArray(v),
      )
    : [];
}

export function getConsulting(db: ReadableDB, siteId: string): ConsultingServiceView[] {
  return prepared<{ siteId: string }, ConsultingRow>(
    db,
    `SELECT s.id, s.title, s.description, s.duration_minutes, s.consultant_name, s.course_id, c.title AS course_title, s.slots, s.booked_times
     FROM consulting_services s LEFT JOIN courses c ON c.site_id = s.site_id AND c.id = s.course_id
     WHERE s.site_id = @siteId ORDER BY s.position`,
  )
    .all({ siteId })
    .map((r) => ({
      id: r.id,
      title: siteText(r.title),
      description: siteTextOrNull(r.description, 20_000),
      durationMinutes: siteNumber(r.duration_minutes),
      consultantName: siteText(r.consultant_name),
      courseId: r.course_id,
      courseTitle: siteTextOrNull(r.course_title),
      slots: jsonObjects(r.slots).map((s) => ({
        weekday: siteNumber(s['weekday']),
        startTime: siteText(s['startTime'], 16),
        endTime: siteText(s['endTime'], 16),
        timeZone: siteText(s['timeZone'], 64),
      })),
      bookedTimes: jsonObjects(r.booked_times).map((b) => ({
        startsAt: typeof b['startsAt'] === 'string' ? b['startsAt'] : '',
        endsAt: typeof b['endsAt'] === 'string' ? b['endsAt'] : '',
      })),
    }));
}
