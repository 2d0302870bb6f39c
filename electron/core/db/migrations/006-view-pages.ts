/**
 * 006: paged views. The renderer asks for what it shows: a summary and pages of 50, each answered
 * from an index, so no call builds thousands of rows (the whole-view memo cost up to 80 ms to
 * rebuild after a sync).
 * - `orders`: one row per tradeNo with the order's date (its earliest payment's createdAt), filled
 *   when payments are written (payments.ts), so "newest order first" is an index walk. A row of
 *   `payments` is still one payment, not one order (spec "Payment node"); this table only orders
 *   and counts the groups.
 * - `expires_ms`: the expiry instants as epoch milliseconds, computed by SQLite from the stored ISO
 *   8601 text (https://sqlite.org/lang_datefunc.html, 'subsec' keeps the milliseconds). Filters run
 *   in SQL at read time ("payable now", "expired now") and the flags the views show are derived
 *   from the same column, so a filter and a flag can never disagree, whatever offset or precision
 *   the site wrote the time with. VIRTUAL: nothing stored.
 * - Indexes: payable ATM / store codes by expiry, unread notifications newest first, payment totals
 *   per currency (covering, so the summary never reads the JSON columns).
 * The orders of payments already stored are filled here.
 */
export const version = 6;
export const name = '006-view-pages';
export const sql = /* sql */ `
CREATE TABLE orders (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  trade_no TEXT NOT NULL,
  created_at TEXT NOT NULL,         -- the earliest createdAt of the order's payments
  PRIMARY KEY (site_id, trade_no)
) STRICT, WITHOUT ROWID;
CREATE INDEX orders_by_created ON orders(site_id, created_at DESC, trade_no DESC);
INSERT INTO orders (site_id, trade_no, created_at)
  SELECT site_id, trade_no, min(created_at) FROM payments GROUP BY site_id, trade_no;

ALTER TABLE payments ADD COLUMN expires_ms INTEGER
  GENERATED ALWAYS AS (CAST(round(unixepoch(expired_at, 'subsec') * 1000) AS INTEGER)) VIRTUAL;
DROP INDEX payments_pending_instructions;
CREATE INDEX payments_payable ON payments(site_id, expires_ms)
  WHERE payment_state = 'not_paid' AND code_no IS NOT NULL;
CREATE INDEX payments_totals ON payments(site_id, currency, payment_state, amount, refunded_amount);

ALTER TABLE courses ADD COLUMN expires_ms INTEGER
  GENERATED ALWAYS AS (CAST(round(unixepoch(expire_date, 'subsec') * 1000) AS INTEGER)) VIRTUAL;

DROP INDEX notifications_unread;
CREATE INDEX notifications_unread_by_created ON notifications(site_id, created_at DESC, id DESC) WHERE read_at IS NULL;
`;
