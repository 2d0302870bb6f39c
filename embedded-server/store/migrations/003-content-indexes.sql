-- 003: covering indexes for the member API's hot paths (the app's first sync walks every page).
-- The course tree of a page of courses reads lectures by course in (course, section, position) order and
-- only these columns, so the index answers it without touching the table.
CREATE INDEX lectures_tree ON lectures(course_id, section_id, position, id, title, duration, unlock_at);
