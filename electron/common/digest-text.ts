/**
 * The weekly digest's words (electron/core/desktop/weekly-digest.ts) in both languages: counts by
 * school and kind. English picks each noun's form by the CLDR plural rules (Intl.PluralRules:
 * "one" or "other"); Chinese has one form and counts with a measure word.
 */

/** What the digest counts, one per kind of change. */
export type DigestItem =
  | 'lecturesNew'
  | 'lecturesUnlocked'
  | 'coursesEnded'
  | 'accessMoved'
  | 'coursesAdded'
  | 'coursesGone'
  | 'paymentsPaid'
  | 'paymentsExpired'
  | 'paymentsRefunded'
  | 'productsNew'
  | 'eventsNew';

export interface DigestSchool {
  readonly label: string;
  readonly counts: Readonly<Partial<Record<DigestItem, number>>>;
}

/** The order the kinds are told in: what a student acts on first. */
const ORDER: readonly DigestItem[] = [
  'lecturesNew',
  'lecturesUnlocked',
  'coursesEnded',
  'accessMoved',
  'paymentsExpired',
  'paymentsPaid',
  'paymentsRefunded',
  'coursesAdded',
  'coursesGone',
  'productsNew',
  'eventsNew',
];

const EN: Record<DigestItem, readonly [one: string, other: string]> = {
  lecturesNew: ['new lecture', 'new lectures'],
  lecturesUnlocked: ['lecture unlocked', 'lectures unlocked'],
  coursesEnded: ['course ended', 'courses ended'],
  accessMoved: ['access date changed', 'access dates changed'],
  paymentsExpired: ['payment expired', 'payments expired'],
  paymentsPaid: ['payment paid', 'payments paid'],
  paymentsRefunded: ['payment refunded', 'payments refunded'],
  coursesAdded: ['new course', 'new courses'],
  coursesGone: ['course gone', 'courses gone'],
  productsNew: ['new product', 'new products'],
  eventsNew: ['new event', 'new events'],
};

const ZH: Record<DigestItem, (n: number) => string> = {
  lecturesNew: (n) => `${n} 個新單元`,
  lecturesUnlocked: (n) => `${n} 個單元解鎖`,
  coursesEnded: (n) => `${n} 門課程結束`,
  accessMoved: (n) => `${n} 門課程的觀看期限變更`,
  paymentsExpired: (n) => `${n} 筆付款逾期`,
  paymentsPaid: (n) => `${n} 筆付款完成`,
  paymentsRefunded: (n) => `${n} 筆退款`,
  coursesAdded: (n) => `${n} 門新課程`,
  coursesGone: (n) => `${n} 門課程移除`,
  productsNew: (n) => `${n} 個新商品`,
  eventsNew: (n) => `${n} 場新活動`,
};

const EN_PLURAL = new Intl.PluralRules('en');

function counts(school: DigestSchool, language: 'en' | 'zh-TW'): string {
  const parts: string[] = [];
  for (const item of ORDER) {
    const n = school.counts[item];
    if (!n) continue;
    parts.push(
      language === 'en' ? `${n} ${EN[item][EN_PLURAL.select(n) === 'one' ? 0 : 1]}` : ZH[item](n),
    );
  }
  return parts.join(language === 'en' ? ', ' : '、');
}

/** The digest's title and body; `schools` is how many schools changed (some may not be named). */
export function digestText(
  named: readonly DigestSchool[],
  schools: number,
  language: 'en' | 'zh-TW',
): { title: string; body: string } {
  const more = schools - named.length;
  if (language === 'zh-TW') {
    const lines = named.map((s) => `${s.label}：${counts(s, language)}`);
    if (more > 0) lines.push(`另有 ${more} 所學校有更新`);
    return { title: '本週摘要', body: `${lines.join('。')}。打開「今天」查看「自上次查看以來」。` };
  }
  const lines = named.map((s) => `${s.label}: ${counts(s, language)}`);
  if (more > 0)
    lines.push(`and ${more} more ${EN_PLURAL.select(more) === 'one' ? 'school' : 'schools'}`);
  return {
    title: 'This week',
    body: `${lines.join('; ')}. Open Today to see what changed since you last looked.`,
  };
}
