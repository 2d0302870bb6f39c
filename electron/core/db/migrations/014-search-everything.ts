/**
 * 014: search finds instructors, orders, payments, digital products, events and consulting too
 * (search/build.ts says what each row holds; a commit rewriting their part rebuilds them). The rows
 * already stored are indexed here, with rowids from `next_rowid` up (never reused, 007) and each
 * site's rows of a kind in one run (search_ranges, 009), so a database synced before searches them
 * at once. Their short-term grams are written by the next index pass. Course rows gain their
 * instructor's name.
 */
export const version = 14;
export const name = '014-search-everything';

/**
 * Inserts `source`'s rows (title, body, site_id, item_id, course_id, n) as `kind`, numbered from
 * next_rowid by site, then n.
 */
const indexed = (kind: string, source: string) => /* sql */ `
INSERT INTO search_index (rowid, title, body, site_id, kind, item_id, course_id)
  SELECT (SELECT next_rowid FROM search_state WHERE id = 1) + row_number() OVER (ORDER BY site_id, n) - 1,
         title, body, site_id, '${kind}', item_id, course_id
  FROM (${source});
UPDATE search_state SET next_rowid = (SELECT max(rowid) + 1 FROM search_index)
  WHERE id = 1 AND (SELECT max(rowid) + 1 FROM search_index) > next_rowid;
`;

export const sql = /* sql */ `
CREATE TEMP TABLE m014_start AS SELECT next_rowid AS first FROM search_state WHERE id = 1;
${indexed(
  'instructor',
  `SELECT trim(instructor_name) AS title, '' AS body, site_id, trim(instructor_name) AS item_id, id AS course_id, min(position) AS n
   FROM courses WHERE trim(coalesce(instructor_name, '')) <> '' GROUP BY site_id, trim(instructor_name)`,
)}
${indexed(
  'order',
  `SELECT coalesce((
      SELECT group_concat(t, ' · ') FROM (
        SELECT DISTINCT substr(json_extract(li.value, '$.title'), 1, 300) AS t FROM payments p, json_each(p.line_items) li
        WHERE p.site_id = o.site_id AND p.trade_no = o.trade_no AND li.type = 'object' AND json_type(li.value, '$.title') = 'text')),
      '') AS title, o.trade_no AS body, o.site_id AS site_id, o.trade_no AS item_id, NULL AS course_id,
      row_number() OVER (PARTITION BY o.site_id ORDER BY o.created_at DESC, o.trade_no DESC) AS n
   FROM orders o`,
)}
${indexed(
  'payment',
  `SELECT '' AS title, trim(coalesce(code_no, '') || ' ' || coalesce(bank_name, '') || ' ' ||
      coalesce(CASE WHEN json_valid(invoice) AND json_type(invoice, '$.number') = 'text' THEN json_extract(invoice, '$.number') END, '')) AS body,
      site_id, id AS item_id, NULL AS course_id, position AS n FROM payments`,
)}
${indexed(
  'product',
  `SELECT title, substr(coalesce(description, ''), 1, 2000) AS body, site_id, id AS item_id, NULL AS course_id, position AS n FROM digital_products`,
)}
${indexed(
  'event',
  `SELECT title, trim(coalesce(location, '') || ' ' || ticket_name) AS body, site_id, id AS item_id, NULL AS course_id, position AS n
   FROM event_registrations`,
)}
${indexed(
  'consulting',
  `SELECT title, consultant_name || ' ' || substr(coalesce(description, ''), 1, 2000) AS body, site_id, id AS item_id, course_id, position AS n
   FROM consulting_services`,
)}
INSERT INTO search_ranges (site_id, kind, first_rowid, last_rowid)
  SELECT site_id, kind, min(rowid), max(rowid) FROM search_index
  WHERE rowid >= (SELECT first FROM m014_start) AND site_id IN (SELECT id FROM sites) GROUP BY site_id, kind;
DROP TABLE m014_start;

-- A course is found by its instructor's name too. Its rows keep their rowids; the grams of every row are dropped
-- (a changed body would leave them stale) and written again by the next index pass: until then, scans.
UPDATE search_index SET body = coalesce((SELECT trim(c.instructor_name) FROM courses c WHERE c.site_id = search_index.site_id AND c.id = search_index.item_id), '')
  WHERE kind = 'course';
INSERT INTO search_grams (search_grams) VALUES ('delete-all');
UPDATE search_state SET indexed_through = 0, indexed_rows = 0, garbage = 0 WHERE id = 1;
`;
