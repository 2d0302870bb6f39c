-- 005: the member API's hot paths (see test/bench/README.md, "Where the server's time goes").
--
-- A generation number per group of content tables, raised by triggers on every insert, update and delete
-- whoever writes (admin API, MCP tools, seeds, a test's raw SQL, a cascade from a deleted course). The member API
-- memoises what it derives from those tables against it (store/content-memo.ts), so a memo can never outlive the
-- rows it was read from.
--   course_tree:   sections and lectures (the content of a course tree; the viewer's progress is never memoised).
--   payments:      which rows belong to which member (the page's totalCount).
--   notifications: which rows belong to which member and which are unread (the page's totalCount).
CREATE TABLE content_generations (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO content_generations (name, n) VALUES ('course_tree', 0), ('payments', 0), ('notifications', 0);

CREATE TRIGGER sections_generation_insert AFTER INSERT ON sections
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;
CREATE TRIGGER sections_generation_update AFTER UPDATE ON sections
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;
CREATE TRIGGER sections_generation_delete AFTER DELETE ON sections
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;
CREATE TRIGGER lectures_generation_insert AFTER INSERT ON lectures
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;
CREATE TRIGGER lectures_generation_update AFTER UPDATE ON lectures
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;
CREATE TRIGGER lectures_generation_delete AFTER DELETE ON lectures
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'course_tree'; END;

CREATE TRIGGER payments_generation_insert AFTER INSERT ON payments
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'payments'; END;
CREATE TRIGGER payments_generation_update AFTER UPDATE OF school_id, user_id ON payments
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'payments'; END;
CREATE TRIGGER payments_generation_delete AFTER DELETE ON payments
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'payments'; END;

CREATE TRIGGER notifications_generation_insert AFTER INSERT ON notifications
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'notifications'; END;
CREATE TRIGGER notifications_generation_update AFTER UPDATE OF school_id, user_id, read_at ON notifications
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'notifications'; END;
CREATE TRIGGER notifications_generation_delete AFTER DELETE ON notifications
BEGIN UPDATE content_generations SET n = n + 1 WHERE name = 'notifications'; END;

-- Consulting services of the viewer's delivered courses: a school has few services and a member may hold hundreds
-- of enrolments, so the page walks the school's services in keyset order and probes the member's enrolment of each
-- (UNIQUE (school_id, user_id, course_id)), instead of probing the services of every enrolled course and sorting.
CREATE INDEX consulting_services_by_school ON consulting_services(school_id, created_at DESC, id DESC);
