-- 002: content of a site (member API, MCP, admin API). Times are INTEGER milliseconds since the epoch (UTC);
-- money is REAL in the currency's major unit (ISO 4217; TWD has no minor unit). Every row carries school_id
-- so one database can hold several sites and every query is scoped to the token's school.
-- No foreign keys to 001 (schools, users): the identity seed and the content seed run independently.

CREATE TABLE courses (
  id TEXT PRIMARY KEY,                 -- crs_...
  school_id TEXT NOT NULL,
  slug TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  cover_image_url TEXT,
  instructor_name TEXT,
  price REAL NOT NULL DEFAULT 0,
  currency TEXT NOT NULL DEFAULT 'TWD',
  -- Listed in the public catalog (MCP search_courses) once published.
  is_published INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  UNIQUE (school_id, slug)
);

CREATE TABLE sections (
  id TEXT PRIMARY KEY,                 -- sec_...
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX sections_by_course ON sections(course_id, position);

CREATE TABLE lectures (
  id TEXT PRIMARY KEY,                 -- lec_...
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  section_id TEXT NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  duration INTEGER NOT NULL,           -- seconds
  unlock_at INTEGER                    -- drip content: locked until this time
);
CREATE INDEX lectures_by_section ON lectures(section_id, position);
CREATE INDEX lectures_by_course ON lectures(course_id);

CREATE TABLE enrollments (
  id TEXT PRIMARY KEY,                 -- enr_...
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  enrolled_at INTEGER NOT NULL,
  expire_at INTEGER,                   -- NULL with lifetime access
  has_lifetime_access INTEGER NOT NULL DEFAULT 0,
  completed_at INTEGER,
  last_lecture_id TEXT,
  last_position_seconds INTEGER,
  last_watched_at INTEGER,
  UNIQUE (school_id, user_id, course_id)
);
CREATE INDEX enrollments_by_user ON enrollments(school_id, user_id, enrolled_at DESC, id DESC);

CREATE TABLE lecture_progress (
  user_id TEXT NOT NULL,
  lecture_id TEXT NOT NULL REFERENCES lectures(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unread', 'read', 'completed')),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, lecture_id)
);
CREATE INDEX lecture_progress_by_course ON lecture_progress(user_id, course_id);

CREATE TABLE digital_products (
  id TEXT PRIMARY KEY,                 -- dgp_...
  school_id TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  format TEXT NOT NULL,
  download_url TEXT,
  price REAL NOT NULL DEFAULT 0,
  currency TEXT NOT NULL DEFAULT 'TWD',
  created_at INTEGER NOT NULL
);

CREATE TABLE product_deliveries (
  id TEXT PRIMARY KEY,                 -- dlv_...
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES digital_products(id) ON DELETE CASCADE,
  delivered_at INTEGER NOT NULL,
  expire_at INTEGER
);
CREATE INDEX product_deliveries_by_user ON product_deliveries(school_id, user_id, delivered_at DESC, id DESC);

CREATE TABLE events (
  id TEXT PRIMARY KEY,                 -- evt_...
  school_id TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  location TEXT,
  is_online INTEGER NOT NULL DEFAULT 0,
  join_url TEXT,
  is_published INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE INDEX events_by_start ON events(school_id, starts_at);

CREATE TABLE event_registrations (
  id TEXT PRIMARY KEY,                 -- reg_...
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  ticket_name TEXT NOT NULL,
  registered_at INTEGER NOT NULL
);
CREATE INDEX event_registrations_by_user ON event_registrations(school_id, user_id, registered_at DESC, id DESC);

CREATE TABLE consulting_services (
  id TEXT PRIMARY KEY,                 -- csv_...
  school_id TEXT NOT NULL,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT,
  duration_minutes INTEGER NOT NULL,
  consultant_name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX consulting_services_by_course ON consulting_services(course_id);

CREATE TABLE consulting_slots (
  id INTEGER PRIMARY KEY,
  service_id TEXT NOT NULL REFERENCES consulting_services(id) ON DELETE CASCADE,
  weekday INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL,
  time_zone TEXT NOT NULL
);
CREATE INDEX consulting_slots_by_service ON consulting_slots(service_id);

-- Meetings belong to whoever booked them; the member API never says whose (spec "Consulting service").
CREATE TABLE consulting_meetings (
  id TEXT PRIMARY KEY,                 -- mtg_...
  service_id TEXT NOT NULL REFERENCES consulting_services(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL
);
CREATE INDEX consulting_meetings_by_service ON consulting_meetings(service_id, starts_at);

-- One row is one payment, not one order: several rows may share trade_no (spec "Payment node").
CREATE TABLE payments (
  id TEXT PRIMARY KEY,                 -- pay_...
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  trade_no TEXT NOT NULL,
  amount REAL NOT NULL,
  currency TEXT NOT NULL,
  payment_type TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  paid_at INTEGER,
  payment_state TEXT NOT NULL CHECK (payment_state IN ('not_paid', 'paid', 'expired', 'failed', 'manual_enrolled', 'refunded')),
  refunding_state TEXT NOT NULL DEFAULT 'none',
  refunded_amount REAL NOT NULL DEFAULT 0,
  refunded_at INTEGER,
  refund_requested_at INTEGER,
  bank_code TEXT,
  bank_name TEXT,
  code_no TEXT,
  expired_at INTEGER,
  invoice_number TEXT,
  invoice_kind TEXT,
  invoice_title TEXT,
  invoice_tax_id TEXT,
  invoice_issued_at INTEGER,
  invoice_voided_at INTEGER,
  installment_periods INTEGER,
  installment_amount_per_period REAL,
  installment_bank_name TEXT
);
CREATE INDEX payments_by_user ON payments(school_id, user_id, created_at DESC, id DESC);
CREATE INDEX payments_by_trade ON payments(school_id, trade_no);

CREATE TABLE payment_adjustments (
  id INTEGER PRIMARY KEY,
  payment_id TEXT NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('coupon', 'promotion')),
  code TEXT,
  title TEXT NOT NULL,
  amount REAL NOT NULL
);
CREATE INDEX payment_adjustments_by_payment ON payment_adjustments(payment_id);

CREATE TABLE payment_line_items (
  id TEXT PRIMARY KEY,                 -- li_...
  payment_id TEXT NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
  item_type TEXT NOT NULL,
  item_id TEXT,
  title TEXT NOT NULL,
  quantity INTEGER NOT NULL DEFAULT 1,
  original_amount REAL NOT NULL,
  discount_amount REAL NOT NULL DEFAULT 0,
  final_amount REAL NOT NULL
);
CREATE INDEX payment_line_items_by_payment ON payment_line_items(payment_id);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,                 -- ntf_...
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  url TEXT,
  created_at INTEGER NOT NULL,
  read_at INTEGER
);
CREATE INDEX notifications_by_user ON notifications(school_id, user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications(school_id, user_id) WHERE read_at IS NULL;

CREATE TABLE notification_subscriptions (
  school_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  channel TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  PRIMARY KEY (school_id, user_id, topic, channel)
);

-- Thin operator areas (membership_plans, coupons, posts, subscriptions, lecturers, pages, comments, forms,
-- school, appearance, uploads): one record table, each row a JSON document of its area. Real storage, small code.
CREATE TABLE admin_records (
  id TEXT PRIMARY KEY,
  school_id TEXT NOT NULL,
  area TEXT NOT NULL,
  data TEXT NOT NULL,                  -- JSON
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX admin_records_by_area ON admin_records(school_id, area, created_at DESC, id DESC);

CREATE TABLE uploads (
  id TEXT PRIMARY KEY,                 -- upl_...
  school_id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  created_at INTEGER NOT NULL
);
