/**
 * 024: the "new since last sync" badges read the change record (db/change-record.ts) instead of
 * their own table. `course_seen_at`: the student opened the course, so its new lectures no longer
 * show on it (apart from `seen_at`, which is Today's). The counts 016 kept are carried over as one
 * record each, already seen on Today (Today showed or will show the changes of those syncs that 021
 * recorded), and the record's own new lectures are marked opened so no badge counts them twice.
 */
export const version = 24;
export const name = '024-course-news-record';
export const sql = /* sql */ `
ALTER TABLE change_record ADD COLUMN course_seen_at TEXT;
UPDATE change_record SET course_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE kind = 'lectures-new';
INSERT INTO change_record (site_id, at, kind, item_id, course_id, title, detail, seen_at)
  SELECT n.site_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'lectures-new', n.course_id, n.course_id,
    coalesce(c.title, ''), json_object('count', n.new_lectures), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM course_news n LEFT JOIN courses c ON c.site_id = n.site_id AND c.id = n.course_id;
DROP TABLE course_news;
CREATE INDEX change_record_course_news ON change_record(site_id, course_id)
  WHERE kind = 'lectures-new' AND course_seen_at IS NULL;
`;
