/**
 * The words a student reads for an order's states and its items' kinds, in both languages, as the
 * Purchases screen shows them (renderer i18n billing.paymentState, refundState, itemType;
 * test/core/db/search-words.test.ts keeps them equal): an order is found by them, so "refund" or
 * 「退款」 finds the refunded orders and "ticket" or 「票券」 the orders of event tickets. Kept here
 * because the index is written in the database layer, which imports no strings of the screens or
 * the exports.
 */
export const STATE_WORDS = {
  paymentState: {
    not_paid: 'Not paid yet 尚未付款',
    paid: 'Paid 已付款',
    expired: 'Expired 已逾期',
    failed: 'Failed 付款失敗',
    manual_enrolled: 'Enrolled by the school 由學校加入',
    refunded: 'Refunded 已退款',
  },
  refundState: {
    requested: 'Refund requested 已申請退款',
    processing: 'Refund in progress 退款處理中',
    partially_refunded: 'Partly refunded 部分退款',
    refunded: 'Refunded 已退款',
    rejected: 'Refund declined 退款未核准',
  },
  itemType: {
    CurriculumPlan: 'Course 課程',
    MembershipPlan: 'Membership 會員方案',
    Ticket: 'Event ticket 活動票券',
    DigitalProduct: 'Digital product 數位商品',
    OrderBump: 'Add-on 加購',
    Meeting: 'Consulting session 諮詢時段',
  },
} as const satisfies Record<string, Record<string, string>>;

/**
 * `CASE <column> WHEN 'paid' THEN 'Paid 已付款' ... ELSE '' END`: the words of a column's value, in
 * SQL.
 */
export function wordsOf(column: string, words: Readonly<Record<string, string>>): string {
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return `CASE ${column} ${Object.entries(words)
    .map(([value, text]) => `WHEN ${quote(value)} THEN ${quote(text)}`)
    .join(' ')} ELSE '' END`;
}
