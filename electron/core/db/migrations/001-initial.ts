/**
 * 001: the offline snapshot of each site. Every row carries `site_id` with a foreign key to
 * `sites(id)` ON DELETE CASCADE, so removing a site removes all its data and sites never mix. Times
 * are the service's ISO 8601 UTC strings (they sort as text); money is REAL in the currency's major
 * unit (ISO 4217). Small nested lists the views never filter on (slots, adjustments, line items...)
 * are JSON columns; what the views filter or sort on is a column with an index.
 */
export const version = 1;
export const name = '001-initial';
export const sql = /* sql */ `
CREATE TABLE sites (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE profile (
  site_id TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  avatar_url TEXT
) STRICT;

CREATE TABLE schools (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  subdomain TEXT NOT NULL,
  roles TEXT NOT NULL,              -- JSON array, highest role first
  position INTEGER NOT NULL,
  PRIMARY KEY (site_id, id)
) STRICT;

CREATE TABLE courses (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,        -- order the service listed them in
  slug TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  cover_image_url TEXT,
  instructor_name TEXT,
  enrolled_at TEXT NOT NULL,
  expire_date TEXT,
  has_lifetime_access INTEGER NOT NULL,
  total_lectures INTEGER NOT NULL,
  read_lectures INTEGER NOT NULL,
  completed_lectures INTEGER NOT NULL,
  percent REAL NOT NULL,
  completed_at TEXT,
  last_lecture_id TEXT,
  last_position_seconds INTEGER,
  last_watched_at TEXT,
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX courses_by_position ON courses(site_id, position);

CREATE TABLE sections (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  course_id TEXT NOT NULL,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (site_id, id),
  FOREIGN KEY (site_id, course_id) REFERENCES courses(site_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX sections_by_course ON sections(site_id, course_id, position);

CREATE TABLE lectures (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  course_id TEXT NOT NULL,
  section_id TEXT NOT NULL,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unread', 'read', 'completed')),
  is_locked INTEGER NOT NULL,
  unlock_at TEXT,
  duration INTEGER NOT NULL,        -- seconds
  PRIMARY KEY (site_id, id),
  FOREIGN KEY (site_id, section_id) REFERENCES sections(site_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX lectures_by_section ON lectures(site_id, section_id, position);
CREATE INDEX lectures_by_course ON lectures(site_id, course_id);

CREATE TABLE digital_products (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  format TEXT NOT NULL,
  delivered_at TEXT NOT NULL,
  expire_date TEXT,
  download_url TEXT,
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX digital_products_by_position ON digital_products(site_id, position);

CREATE TABLE event_registrations (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  title TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL,
  location TEXT,
  is_online INTEGER NOT NULL,
  join_url TEXT,
  ticket_name TEXT NOT NULL,
  registered_at TEXT NOT NULL,
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX event_registrations_by_start ON event_registrations(site_id, starts_at);

-- Meetings are everyone's bookings on the service (spec "Consulting service"): stored as booked times only.
CREATE TABLE consulting_services (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  duration_minutes INTEGER NOT NULL,
  consultant_name TEXT NOT NULL,
  course_id TEXT NOT NULL,
  slots TEXT NOT NULL,              -- JSON [{weekday,startTime,endTime,timeZone}]
  booked_times TEXT NOT NULL,       -- JSON [{startsAt,endsAt}]
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX consulting_services_by_position ON consulting_services(site_id, position);

-- One row is one payment, not one order (spec "Payment node"): orders are grouped by trade_no in the view.
CREATE TABLE payments (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  trade_no TEXT NOT NULL,
  amount REAL NOT NULL,
  currency TEXT NOT NULL,
  payment_type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  paid_at TEXT,
  payment_state TEXT NOT NULL,
  refunding_state TEXT NOT NULL,
  refunded_amount REAL NOT NULL,
  refunded_at TEXT,
  refund_requested_at TEXT,
  bank_code TEXT,
  bank_name TEXT,
  code_no TEXT,
  expired_at TEXT,
  adjustments TEXT NOT NULL,        -- JSON
  invoice TEXT,                     -- JSON or NULL
  line_items TEXT NOT NULL,         -- JSON
  installment TEXT,                 -- JSON or NULL
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX payments_by_trade ON payments(site_id, trade_no, created_at);
CREATE INDEX payments_pending_instructions ON payments(site_id, expired_at)
  WHERE payment_state = 'not_paid' AND code_no IS NOT NULL;

-- read_at is what the views show (server value plus queued local changes); server_read_at is the server's.
CREATE TABLE notifications (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  url TEXT,
  created_at TEXT NOT NULL,
  read_at TEXT,
  server_read_at TEXT,
  PRIMARY KEY (site_id, id)
) STRICT;
CREATE INDEX notifications_by_created ON notifications(site_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications(site_id) WHERE read_at IS NULL;

CREATE TABLE notification_subscriptions (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  channel TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  server_enabled INTEGER NOT NULL,
  PRIMARY KEY (site_id, topic, channel)
) STRICT;

-- Queued mutations (account:write), replayed in id order. 'failed' rows are kept to be reported.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('mark-notification-read', 'mark-all-notifications-read', 'update-notification-subscription')),
  payload TEXT NOT NULL,            -- JSON
  description TEXT NOT NULL,
  created_at TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  last_attempt_at TEXT
) STRICT;
CREATE INDEX outbox_by_site ON outbox(site_id, status, id);

CREATE TABLE sync_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('completed', 'partial', 'failed', 'cancelled')),
  counts TEXT NOT NULL,             -- JSON
  missing_scopes TEXT NOT NULL,     -- JSON
  error_code TEXT,
  error_message TEXT
) STRICT;
CREATE INDEX sync_runs_by_site ON sync_runs(site_id, id DESC);
`;
