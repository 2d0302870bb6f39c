import type { Database } from 'better-sqlite3';
import * as courses from '../store/content-courses';
import * as catalog from '../store/content-catalog';
import * as ent from '../store/content-entitlements';
import * as pay from '../store/content-payments';
import * as ntf from '../store/content-notifications';
import * as rec from '../store/content-records';
import type { Rng } from './content-random';
import { coverPath } from '../covers/paths';
import { productFilePath } from '../files/paths';

/**
 * The demo site's content for usr_student: realistic, bilingual, every state the app must render.
 * Ids are stable (UI and sync tests look for them); times are relative to `now`.
 */

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const STUDENT = 'usr_student';

export interface CourseSpec {
  id: string;
  slug: string;
  title: string;
  description: string;
  instructor: string;
  price: number;
  currency?: string;
  published?: boolean;
  sections: { title: string; lectures: string[] }[];
  /** Drip: lectures of the last section unlock in the future. */
  drip?: boolean;
  enrollment?: {
    enrolledDaysAgo: number;
    /** Days from now; negative = expired; undefined = lifetime. */
    expiresInDays?: number;
    /** Fraction of lectures completed (in order), plus the next one 'read'. */
    progress: number;
    lastPositionSeconds?: number;
  };
}

export function insertCourseTree(
  db: Database,
  schoolId: string,
  spec: CourseSpec,
  now: number,
  rng: Rng,
  userId = STUDENT,
): void {
  const short = spec.id.replace(/^crs_/, '');
  catalog.insertCourse(db, {
    id: spec.id,
    school_id: schoolId,
    slug: spec.slug,
    title: spec.title,
    description: spec.description,
    // Served by the site itself (covers/routes.ts): no external host, so covers load offline and in
    // tests.
    cover_image_url: coverPath(spec.slug),
    instructor_name: spec.instructor,
    price: spec.price,
    currency: spec.currency ?? 'TWD',
    is_published: spec.published === false ? 0 : 1,
    created_at: now - 400 * DAY + rng.int(0, 30) * DAY,
  });
  const lectureIds: string[] = [];
  spec.sections.forEach((section, si) => {
    const sectionId = `sec_${short}_${si + 1}`;
    catalog.insertSection(db, {
      id: sectionId,
      course_id: spec.id,
      title: section.title,
      position: si + 1,
    });
    section.lectures.forEach((title, li) => {
      const id = `lec_${short}_${si + 1}_${li + 1}`;
      const locked = spec.drip === true && si === spec.sections.length - 1;
      catalog.insertLecture(db, {
        id,
        course_id: spec.id,
        section_id: sectionId,
        title,
        position: li + 1,
        duration: rng.int(180, 1800),
        unlock_at: locked ? now + (li + 1) * 7 * DAY : null,
      });
      lectureIds.push(id);
    });
  });
  const e = spec.enrollment;
  if (!e) return;
  const done = Math.floor(lectureIds.length * e.progress);
  const enrolledAt = now - e.enrolledDaysAgo * DAY;
  for (let i = 0; i < done; i++)
    courses.setLectureProgress(
      db,
      userId,
      spec.id,
      lectureIds[i]!,
      'completed',
      enrolledAt + (i + 1) * HOUR,
    );
  const current = done < lectureIds.length ? lectureIds[done] : undefined;
  if (current && e.progress > 0)
    courses.setLectureProgress(db, userId, spec.id, current, 'read', now - 2 * HOUR);
  const lastId = current && e.progress > 0 ? current : done > 0 ? lectureIds[done - 1]! : null;
  courses.insertEnrollment(db, {
    id: `enr_${short}`,
    school_id: schoolId,
    user_id: userId,
    course_id: spec.id,
    enrolled_at: enrolledAt,
    expire_at: e.expiresInDays === undefined ? null : now + e.expiresInDays * DAY,
    has_lifetime_access: e.expiresInDays === undefined ? 1 : 0,
    completed_at: done === lectureIds.length ? now - 5 * DAY : null,
    last_lecture_id: lastId,
    last_position_seconds: lastId ? (e.lastPositionSeconds ?? 0) : null,
    last_watched_at: lastId ? now - 2 * HOUR : null,
  });
}

const L = (n: number, en: string, zh: string): string[] =>
  Array.from({ length: n }, (_, i) => `${en} ${i + 1} ${zh} ${i + 1}`);

export const DEMO_COURSES: CourseSpec[] = [
  {
    id: 'crs_data_analysis',
    slug: 'intro-to-data-analysis',
    title: 'Intro to Data Analysis 資料分析入門',
    description: 'Spreadsheets, SQL and charts from zero. 從零開始學試算表、SQL 與圖表。',
    instructor: 'Mei-Ling Chen 陳美玲',
    price: 2400,
    sections: [
      {
        title: 'Getting started 開始之前',
        lectures: ['Welcome 歡迎', 'Tools you need 需要的工具', 'Your first dataset 第一份資料集'],
      },
      { title: 'Cleaning data 資料清理', lectures: L(4, 'Cleaning step', '清理步驟') },
      { title: 'Charts 圖表', lectures: L(4, 'Chart lesson', '圖表課') },
    ],
    enrollment: {
      enrolledDaysAgo: 40,
      expiresInDays: 325,
      progress: 0.4,
      lastPositionSeconds: 312,
    },
  },
  {
    id: 'crs_python',
    slug: 'python-for-beginners',
    title: 'Python for Beginners Python 程式設計基礎',
    description: 'Variables, loops and functions. 變數、迴圈與函式。',
    instructor: 'Kevin Lin 林凱文',
    price: 3200,
    sections: [
      { title: 'Basics 基礎', lectures: L(3, 'Basics', '基礎') },
      { title: 'Control flow 流程控制', lectures: L(3, 'Control flow', '流程控制') },
    ],
    enrollment: { enrolledDaysAgo: 200, progress: 1 },
  },
  {
    id: 'crs_ux_writing',
    slug: 'ux-writing-essentials',
    title: 'UX Writing Essentials UX 文案寫作精要',
    description: 'Words that guide users. 引導使用者的文字。',
    instructor: 'Amy Wu 吳艾咪',
    price: 1800,
    sections: [
      { title: 'Voice and tone 語氣與調性', lectures: L(3, 'Voice', '語氣') },
      { title: 'Microcopy 微文案', lectures: L(3, 'Microcopy', '微文案') },
    ],
    enrollment: { enrolledDaysAgo: 362, expiresInDays: 3, progress: 0.5, lastPositionSeconds: 75 },
  },
  {
    id: 'crs_photography',
    slug: 'smartphone-photography',
    title: 'Smartphone Photography 手機攝影技巧',
    description: 'Light, composition and editing. 光線、構圖與後製。',
    instructor: 'Jason Huang 黃杰森',
    price: 1500,
    sections: [
      { title: 'Light 光線', lectures: L(3, 'Light', '光線') },
      { title: 'Composition 構圖', lectures: L(3, 'Composition', '構圖') },
    ],
    enrollment: {
      enrolledDaysAgo: 375,
      expiresInDays: -10,
      progress: 0.3,
      lastPositionSeconds: 40,
    },
  },
  {
    id: 'crs_finance',
    slug: 'personal-finance-101',
    title: 'Personal Finance 101 個人理財入門',
    description: 'Budgets, savings and index funds. 預算、儲蓄與指數型基金。',
    instructor: 'Grace Tsai 蔡佳恩',
    price: 0,
    sections: [{ title: 'Budgeting 預算', lectures: L(4, 'Budget', '預算') }],
    enrollment: { enrolledDaysAgo: 12, progress: 0 },
  },
  {
    id: 'crs_machine_learning',
    slug: 'machine-learning-in-practice',
    title: 'Machine Learning in Practice 機器學習實戰',
    description: 'From regression to trees, weekly releases. 從迴歸到決策樹，每週更新。',
    instructor: 'Dr. Wei Chang 張偉',
    price: 12000,
    drip: true,
    sections: [
      { title: 'Foundations 基礎', lectures: L(3, 'Foundation', '基礎') },
      { title: 'Models 模型', lectures: L(3, 'Model', '模型') },
      { title: 'Coming soon 即將推出', lectures: L(3, 'Advanced topic', '進階主題') },
    ],
    enrollment: {
      enrolledDaysAgo: 20,
      expiresInDays: 345,
      progress: 0.25,
      lastPositionSeconds: 1020,
    },
  },
  {
    id: 'crs_calligraphy',
    slug: 'chinese-calligraphy',
    title: 'Chinese Calligraphy 書法入門',
    description: 'Brush, ink and the eight strokes. 筆、墨與永字八法。',
    instructor: 'Master Lee 李老師',
    price: 4800,
    sections: [
      { title: 'Tools 文房四寶', lectures: L(2, 'Tools', '工具') },
      { title: 'Strokes 筆畫', lectures: L(4, 'Stroke', '筆畫') },
    ],
    enrollment: { enrolledDaysAgo: 90, progress: 0.6, lastPositionSeconds: 501 },
  },
  {
    id: 'crs_marketing',
    slug: 'digital-marketing-strategy',
    title: 'Digital Marketing Strategy 數位行銷策略',
    description: 'Funnels, ads and analytics. 漏斗、廣告與數據分析。',
    instructor: 'Sarah Kuo 郭莎拉',
    price: 49,
    currency: 'USD',
    sections: [{ title: 'Funnels 漏斗', lectures: L(3, 'Funnel', '漏斗') }],
    enrollment: { enrolledDaysAgo: 1, expiresInDays: 364, progress: 0 },
  },
  // Public catalog only (not enrolled), and one unpublished draft that no catalog shows.
  {
    id: 'crs_excel_dashboards',
    slug: 'excel-dashboards',
    title: 'Excel Dashboards Excel 儀表板實作',
    description: 'Pivot tables and dashboards. 樞紐分析與儀表板。',
    instructor: 'Mei-Ling Chen 陳美玲',
    price: 1990,
    sections: [{ title: 'Pivot tables 樞紐分析表', lectures: L(3, 'Pivot', '樞紐') }],
  },
  {
    id: 'crs_public_speaking',
    slug: 'public-speaking',
    title: 'Public Speaking 公眾演說',
    description: 'Speak with confidence. 自信地上台。',
    instructor: 'Tom Yang 楊湯姆',
    price: 2200,
    sections: [{ title: 'Stage fright 克服怯場', lectures: L(2, 'Practice', '練習') }],
  },
  {
    id: 'crs_draft_unreleased',
    slug: 'unreleased-draft',
    title: 'Unreleased Draft 未發布草稿',
    description: 'Not in the catalog. 不在目錄中。',
    instructor: 'Staff 工作人員',
    price: 999,
    published: false,
    sections: [{ title: 'Draft 草稿', lectures: L(1, 'Draft', '草稿') }],
  },
];

interface PaymentSpec {
  id: string;
  trade: string;
  amount: number;
  currency?: string;
  type: pay.PaymentRow['payment_type'];
  state: pay.PaymentRow['payment_state'];
  daysAgo: number;
  item: {
    type: pay.LineItemRow['item_type'];
    id: string | null;
    title: string;
    original: number;
    discount?: number;
  };
  coupon?: { code: string; amount: number };
  promotion?: { title: string; amount: number };
  invoice?: {
    kind: 'personal' | 'company' | 'donation';
    title?: string;
    taxId?: string;
    voided?: boolean;
  };
  installment?: { periods: number; bank: string };
  refund?: { state: pay.PaymentRow['refunding_state']; amount: number };
  instructions?: { bankCode?: string; bankName?: string; codeNo: string; expiresInDays: number };
}

export function insertPaymentSpec(
  db: Database,
  schoolId: string,
  p: PaymentSpec,
  now: number,
  userId = STUDENT,
): void {
  const createdAt = now - p.daysAgo * DAY;
  const paid = p.state === 'paid' || p.state === 'refunded' || p.state === 'manual_enrolled';
  const refunded = p.refund && p.refund.amount > 0;
  pay.insertPayment(db, {
    id: p.id,
    school_id: schoolId,
    user_id: userId,
    trade_no: p.trade,
    amount: p.amount,
    currency: p.currency ?? 'TWD',
    payment_type: p.type,
    created_at: createdAt,
    paid_at: paid ? createdAt + 5 * 60_000 : null,
    payment_state: p.state,
    refunding_state: p.refund?.state ?? 'none',
    refunded_amount: p.refund?.amount ?? 0,
    refunded_at: refunded ? createdAt + 3 * DAY : null,
    refund_requested_at: p.refund ? createdAt + 2 * DAY : null,
    bank_code: p.instructions?.bankCode ?? null,
    bank_name: p.instructions?.bankName ?? null,
    code_no: p.instructions?.codeNo ?? null,
    expired_at: p.instructions ? now + p.instructions.expiresInDays * DAY : null,
    invoice_number: p.invoice ? `AB-${p.trade.slice(-8)}` : null,
    invoice_kind: p.invoice?.kind ?? null,
    invoice_title: p.invoice?.title ?? null,
    invoice_tax_id: p.invoice?.taxId ?? null,
    invoice_issued_at: p.invoice ? createdAt + 10 * 60_000 : null,
    invoice_voided_at: p.invoice?.voided ? createdAt + 3 * DAY : null,
    installment_periods: p.installment?.periods ?? null,
    installment_amount_per_period: p.installment
      ? Math.round(p.amount / p.installment.periods)
      : null,
    installment_bank_name: p.installment?.bank ?? null,
  });
  if (p.coupon)
    pay.insertAdjustment(db, {
      payment_id: p.id,
      kind: 'coupon',
      code: p.coupon.code,
      title: `Coupon ${p.coupon.code} 優惠券`,
      amount: -p.coupon.amount,
    });
  if (p.promotion)
    pay.insertAdjustment(db, {
      payment_id: p.id,
      kind: 'promotion',
      code: null,
      title: p.promotion.title,
      amount: -p.promotion.amount,
    });
  const discount = p.item.discount ?? 0;
  pay.insertLineItem(db, {
    id: `li_${p.id.replace(/^pay_/, '')}`,
    payment_id: p.id,
    item_type: p.item.type,
    item_id: p.item.id,
    title: p.item.title,
    quantity: 1,
    original_amount: p.item.original,
    discount_amount: discount,
    final_amount: p.item.original - discount,
  });
}

const CTBC = { bankCode: '822', bankName: 'CTBC Bank 中國信託' };

export const DEMO_PAYMENTS: PaymentSpec[] = [
  {
    id: 'pay_demo_01',
    trade: 'T202611000001',
    amount: 2200,
    type: 'credit_card',
    state: 'paid',
    daysAgo: 40,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_data_analysis',
      title: 'Intro to Data Analysis 資料分析入門',
      original: 2400,
      discount: 200,
    },
    coupon: { code: 'WELCOME200', amount: 200 },
    invoice: { kind: 'personal' },
  },
  {
    id: 'pay_demo_02',
    trade: 'T202611000002',
    amount: 12000,
    type: 'credit_card',
    state: 'paid',
    daysAgo: 20,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_machine_learning',
      title: 'Machine Learning in Practice 機器學習實戰',
      original: 12000,
    },
    installment: { periods: 6, bank: 'Cathay United Bank 國泰世華' },
    invoice: { kind: 'personal' },
  },
  // One purchase paid in two payments under one tradeNo (deposit, then balance).
  {
    id: 'pay_demo_03',
    trade: 'T202611000003',
    amount: 2000,
    type: 'credit_card',
    state: 'paid',
    daysAgo: 90,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_calligraphy',
      title: 'Chinese Calligraphy 書法入門 (deposit 訂金)',
      original: 2000,
    },
    invoice: { kind: 'donation' },
  },
  {
    id: 'pay_demo_04',
    trade: 'T202611000003',
    amount: 2800,
    type: 'atm',
    state: 'paid',
    daysAgo: 85,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_calligraphy',
      title: 'Chinese Calligraphy 書法入門 (balance 尾款)',
      original: 2800,
    },
    invoice: { kind: 'donation' },
  },
  {
    id: 'pay_demo_05',
    trade: 'T202611000004',
    amount: 1990,
    type: 'atm',
    state: 'not_paid',
    daysAgo: 1,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_excel_dashboards',
      title: 'Excel Dashboards Excel 儀表板實作',
      original: 1990,
    },
    instructions: { ...CTBC, codeNo: '82219900012345', expiresInDays: 3 },
  },
  {
    id: 'pay_demo_06',
    trade: 'T202611000005',
    amount: 350,
    type: 'cvs',
    state: 'not_paid',
    daysAgo: 0.5,
    item: {
      type: 'DigitalProduct',
      id: 'dgp_study_planner',
      title: 'Study Planner Template 學習計畫模板',
      original: 350,
    },
    instructions: { codeNo: 'LLL26112200017', expiresInDays: 2 },
  },
  {
    id: 'pay_demo_07',
    trade: 'T202611000006',
    amount: 2200,
    type: 'atm',
    state: 'expired',
    daysAgo: 30,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_public_speaking',
      title: 'Public Speaking 公眾演說',
      original: 2200,
    },
    instructions: { ...CTBC, codeNo: '82219900054321', expiresInDays: -27 },
  },
  {
    id: 'pay_demo_08',
    trade: 'T202611000007',
    amount: 2200,
    type: 'credit_card',
    state: 'failed',
    daysAgo: 29,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_public_speaking',
      title: 'Public Speaking 公眾演說',
      original: 2200,
    },
  },
  {
    id: 'pay_demo_09',
    trade: 'T202611000008',
    amount: 1500,
    type: 'credit_card',
    state: 'refunded',
    daysAgo: 375,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_photography',
      title: 'Smartphone Photography 手機攝影技巧',
      original: 1500,
    },
    refund: { state: 'refunded', amount: 1500 },
    invoice: { kind: 'personal', voided: true },
  },
  {
    id: 'pay_demo_10',
    trade: 'T202611000009',
    amount: 1800,
    type: 'line_pay',
    state: 'paid',
    daysAgo: 362,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_ux_writing',
      title: 'UX Writing Essentials UX 文案寫作精要',
      original: 1800,
    },
    refund: { state: 'partially_refunded', amount: 500 },
    invoice: { kind: 'personal' },
  },
  {
    id: 'pay_demo_11',
    trade: 'T202611000010',
    amount: 49,
    currency: 'USD',
    type: 'apple_pay',
    state: 'paid',
    daysAgo: 1,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_marketing',
      title: 'Digital Marketing Strategy 數位行銷策略',
      original: 49,
    },
  },
  {
    id: 'pay_demo_12',
    trade: 'T202611000011',
    amount: 0,
    type: 'manual',
    state: 'manual_enrolled',
    daysAgo: 12,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_finance',
      title: 'Personal Finance 101 個人理財入門',
      original: 0,
    },
  },
  {
    id: 'pay_demo_13',
    trade: 'T202611000012',
    amount: 590,
    type: 'line_pay',
    state: 'paid',
    daysAgo: 60,
    item: {
      type: 'DigitalProduct',
      id: 'dgp_sql_cheatsheet',
      title: 'SQL Cheat Sheet SQL 速查手冊',
      original: 690,
      discount: 100,
    },
    promotion: { title: 'Autumn sale 秋季特賣', amount: 100 },
    invoice: { kind: 'company', title: 'Example Co., Ltd. 範例股份有限公司', taxId: '12345675' },
    refund: { state: 'requested', amount: 0 },
  },
  {
    id: 'pay_demo_14',
    trade: 'T202611000013',
    amount: 800,
    type: 'credit_card',
    state: 'paid',
    daysAgo: 25,
    item: {
      type: 'Ticket',
      id: 'evt_live_qa',
      title: 'Live Q&A: Data Careers 線上問答：資料職涯',
      original: 800,
    },
    invoice: { kind: 'personal' },
  },
  {
    id: 'pay_demo_15',
    trade: 'T202611000014',
    amount: 3200,
    type: 'credit_card',
    state: 'paid',
    daysAgo: 200,
    item: {
      type: 'CurriculumPlan',
      id: 'crs_python',
      title: 'Python for Beginners Python 程式設計基礎',
      original: 3200,
    },
    invoice: { kind: 'personal' },
  },
];

export const DEMO_NOTIFICATIONS: {
  id: string;
  kind: ntf.NotificationRow['kind'];
  title: string;
  body: string;
  url: string | null;
  hoursAgo: number;
  read: boolean;
}[] = [
  {
    id: 'ntf_demo_01',
    kind: 'course_update',
    title: 'New lecture in Machine Learning 機器學習新單元上線',
    body: 'Model 3 is now available. 模型 3 已上線。',
    url: '/courses/machine-learning-in-practice',
    hoursAgo: 3,
    read: false,
  },
  {
    id: 'ntf_demo_02',
    kind: 'payment',
    title: 'ATM payment waiting 待繳款通知',
    body: 'Pay TWD 1,990 to account 82219900012345 within 3 days. 請於 3 天內繳款。',
    url: '/orders/T202611000004',
    hoursAgo: 20,
    read: false,
  },
  {
    id: 'ntf_demo_03',
    kind: 'event',
    title: 'Live Q&A starts tomorrow 線上問答明天開始',
    body: 'Join link inside. 內含加入連結。',
    url: '/events/evt_live_qa',
    hoursAgo: 30,
    read: false,
  },
  {
    id: 'ntf_demo_04',
    kind: 'announcement',
    title: 'Welcome to Demo School 歡迎加入示範學院',
    body: 'Start with any course. 從任何一堂課開始。',
    url: null,
    hoursAgo: 24 * 40,
    read: true,
  },
  {
    id: 'ntf_demo_05',
    kind: 'consulting',
    title: 'Mentoring hours updated 諮詢時段更新',
    body: 'New Wednesday evening slots. 新增週三晚間時段。',
    url: '/consulting/csv_data_mentoring',
    hoursAgo: 24 * 7,
    read: true,
  },
  {
    id: 'ntf_demo_06',
    kind: 'course_update',
    title: 'UX Writing access ends soon UX 文案課程即將到期',
    body: 'Your access ends in 3 days. 您的觀看權限將於 3 天後到期。',
    url: '/courses/ux-writing-essentials',
    hoursAgo: 48,
    read: true,
  },
  {
    id: 'ntf_demo_07',
    kind: 'payment',
    title: 'Refund processed 退款完成',
    body: 'TWD 1,500 refunded. 已退款 1,500 元。',
    url: null,
    hoursAgo: 24 * 372,
    read: true,
  },
  {
    id: 'ntf_demo_08',
    kind: 'announcement',
    title: 'Holiday schedule 連假客服時間',
    body: 'Support replies may be slower. 客服回覆可能較慢。',
    url: null,
    hoursAgo: 24 * 15,
    read: true,
  },
];

// eslint-disable-next-line max-lines-per-function -- seed data: rows to insert, not logic
export function seedDemoSite(db: Database, schoolId: string, now: number, rng: Rng): void {
  for (const spec of DEMO_COURSES) insertCourseTree(db, schoolId, spec, now, rng);

  // Each product's file is served by this site (files/routes.ts), generated from the product: PDF,
  // WAV, PNG.
  const products = [
    {
      id: 'dgp_sql_cheatsheet',
      title: 'SQL Cheat Sheet SQL 速查手冊',
      format: 'ebook',
      file: 'sql-cheat-sheet.pdf',
      price: 690,
    },
    {
      id: 'dgp_study_planner',
      title: 'Study Planner Template 學習計畫模板',
      format: 'template',
      file: 'study-planner.pdf',
      price: 350,
    },
    {
      id: 'dgp_focus_audio',
      title: 'Mindful Focus Audio 專注冥想音檔',
      format: 'audio',
      file: 'mindful-focus.wav',
      price: 0,
    },
    {
      id: 'dgp_listening_drills',
      title: 'Listening Drills 聽力練習音檔',
      format: 'audio',
      file: 'listening-drills.wav',
      price: 290,
    },
    {
      id: 'dgp_grammar_poster',
      title: 'Grammar Poster 文法海報',
      format: 'image',
      file: 'grammar-poster.png',
      price: 150,
    },
  ];
  for (const p of products) {
    ent.insertDigitalProduct(db, {
      id: p.id,
      school_id: schoolId,
      title: p.title,
      description: `${p.title} (${p.format})`,
      format: p.format,
      download_url: productFilePath(p.id, p.file),
      price: p.price,
      currency: 'TWD',
      created_at: now - 300 * DAY,
    });
  }
  // The planner is unpaid (pay_demo_06), so it is not delivered.
  ent.insertDelivery(db, {
    id: 'dlv_sql_cheatsheet',
    school_id: schoolId,
    user_id: STUDENT,
    product_id: 'dgp_sql_cheatsheet',
    delivered_at: now - 60 * DAY,
    expire_at: null,
  });
  ent.insertDelivery(db, {
    id: 'dlv_focus_audio',
    school_id: schoolId,
    user_id: STUDENT,
    product_id: 'dgp_focus_audio',
    delivered_at: now - 100 * DAY,
    expire_at: now - 5 * DAY,
  });
  ent.insertDelivery(db, {
    id: 'dlv_listening_drills',
    school_id: schoolId,
    user_id: STUDENT,
    product_id: 'dgp_listening_drills',
    delivered_at: now - 20 * DAY,
    expire_at: now + 200 * DAY,
  });
  ent.insertDelivery(db, {
    id: 'dlv_grammar_poster',
    school_id: schoolId,
    user_id: STUDENT,
    product_id: 'dgp_grammar_poster',
    delivered_at: now - 10 * DAY,
    expire_at: null,
  });

  const events = [
    {
      id: 'evt_live_qa',
      title: 'Live Q&A: Data Careers 線上問答：資料職涯',
      starts: now + 1 * DAY,
      hours: 1.5,
      online: true,
      location: null,
    },
    {
      id: 'evt_workshop_taipei',
      title: 'Calligraphy Workshop 書法實體工作坊',
      starts: now - 14 * DAY,
      hours: 3,
      online: false,
      location: 'Taipei, Da-an District 台北市大安區',
    },
    {
      id: 'evt_open_house',
      title: 'Open House 開放日',
      starts: now + 21 * DAY,
      hours: 2,
      online: true,
      location: null,
    },
  ];
  for (const e of events) {
    ent.insertEvent(db, {
      id: e.id,
      school_id: schoolId,
      title: e.title,
      description: e.title,
      starts_at: e.starts,
      ends_at: e.starts + e.hours * HOUR,
      location: e.location,
      is_online: e.online ? 1 : 0,
      join_url: e.online ? `https://meet.example.com/${e.id}` : null,
      is_published: 1,
      created_at: now - 60 * DAY,
    });
  }
  ent.insertEventRegistration(db, {
    id: 'reg_live_qa',
    school_id: schoolId,
    user_id: STUDENT,
    event_id: 'evt_live_qa',
    ticket_name: 'General 一般票',
    registered_at: now - 25 * DAY,
  });
  ent.insertEventRegistration(db, {
    id: 'reg_workshop_taipei',
    school_id: schoolId,
    user_id: STUDENT,
    event_id: 'evt_workshop_taipei',
    ticket_name: 'Early bird 早鳥票',
    registered_at: now - 45 * DAY,
  });

  const services = [
    {
      id: 'csv_data_mentoring',
      course: 'crs_data_analysis',
      title: 'Data Analysis Mentoring 資料分析一對一諮詢',
      consultant: 'Mei-Ling Chen 陳美玲',
      minutes: 60,
    },
    {
      id: 'csv_python_code_review',
      course: 'crs_python',
      title: 'Python Code Review 程式碼健檢',
      consultant: 'Kevin Lin 林凱文',
      minutes: 30,
    },
    // Offered against an expired course: not delivered any more, so the member API does not list
    // it.
    {
      id: 'csv_photo_critique',
      course: 'crs_photography',
      title: 'Photo Critique 作品點評',
      consultant: 'Jason Huang 黃杰森',
      minutes: 45,
    },
  ];
  services.forEach((s, i) => {
    ent.insertConsultingService(db, {
      id: s.id,
      school_id: schoolId,
      course_id: s.course,
      title: s.title,
      description: s.title,
      duration_minutes: s.minutes,
      consultant_name: s.consultant,
      created_at: now - (50 + i) * DAY,
    });
    ent.insertSlot(db, {
      service_id: s.id,
      weekday: 1,
      start_time: '19:00',
      end_time: '21:00',
      time_zone: 'Asia/Taipei',
    });
    ent.insertSlot(db, {
      service_id: s.id,
      weekday: 3,
      start_time: '10:00',
      end_time: '12:00',
      time_zone: 'Asia/Taipei',
    });
    // Reserved by several people, the viewer among them; the API never says whose.
    ['usr_classmate_a', STUDENT, 'usr_classmate_b'].forEach((who, k) => {
      const start = now + (k * 2 + 1 + i) * DAY;
      ent.insertMeeting(db, {
        id: `mtg_${s.id.slice(4)}_${k + 1}`,
        service_id: s.id,
        user_id: who,
        starts_at: start,
        ends_at: start + s.minutes * 60_000,
      });
    });
  });

  for (const p of DEMO_PAYMENTS) insertPaymentSpec(db, schoolId, p, now);

  for (const n of DEMO_NOTIFICATIONS) {
    const at = now - n.hoursAgo * HOUR;
    ntf.insertNotification(db, {
      id: n.id,
      school_id: schoolId,
      user_id: STUDENT,
      kind: n.kind,
      title: n.title,
      body: n.body,
      url: n.url,
      created_at: at,
      read_at: n.read ? at + HOUR : null,
    });
  }
  // Someone else's notification at the same site: the viewer must never see or mark it.
  ntf.insertNotification(db, {
    id: 'ntf_other_user',
    school_id: schoolId,
    user_id: 'usr_owner',
    kind: 'announcement',
    title: 'Operator digest 營運摘要',
    body: 'Weekly numbers. 每週數據。',
    url: null,
    created_at: now - HOUR,
    read_at: null,
  });
  ntf.upsertSubscription(db, schoolId, STUDENT, {
    topic: 'marketing',
    channel: 'email',
    enabled: 0,
  });
  ntf.upsertSubscription(db, schoolId, STUDENT, { topic: 'payments', channel: 'push', enabled: 1 });

  seedOperatorAreas(db, schoolId, now);
}

/** A few records in each thin operator area so admin list routes return something real. */
export function seedOperatorAreas(db: Database, schoolId: string, now: number): void {
  const put = (area: string, id: string, data: Record<string, unknown>, daysAgo: number): void => {
    rec.putRecord(db, schoolId, area, id, data, now - daysAgo * DAY);
  };
  put(
    'membership_plans',
    'mpl_monthly',
    { title: 'All-access monthly 全站月訂閱', price: 499, currency: 'TWD', interval: 'month' },
    100,
  );
  put(
    'membership_plans',
    'mpl_yearly',
    { title: 'All-access yearly 全站年訂閱', price: 4990, currency: 'TWD', interval: 'year' },
    99,
  );
  put(
    'coupons',
    'cpn_welcome200',
    { code: 'WELCOME200', amountOff: 200, currency: 'TWD', maxRedemptions: 1000 },
    80,
  );
  put('coupons', 'cpn_autumn', { code: 'AUTUMN10', percentOff: 10 }, 30);
  put(
    'posts',
    'pst_welcome',
    { title: 'Welcome 歡迎', body: 'Hello and welcome. 歡迎加入。', published: true },
    40,
  );
  put(
    'subscriptions',
    'sub_student_monthly',
    { userId: STUDENT, planId: 'mpl_monthly', state: 'active' },
    20,
  );
  put(
    'lecturers',
    'lct_chen',
    { name: 'Mei-Ling Chen 陳美玲', bio: 'Data analyst. 資料分析師。' },
    300,
  );
  put(
    'lecturers',
    'lct_lin',
    { name: 'Kevin Lin 林凱文', bio: 'Software engineer. 軟體工程師。' },
    300,
  );
  put(
    'pages',
    'pag_about',
    { slug: 'about', title: 'About us 關於我們', body: 'We teach. 我們教學。' },
    300,
  );
  put(
    'comments',
    'cmt_1',
    { courseId: 'crs_data_analysis', userId: STUDENT, body: 'Great lecture! 很棒的課！' },
    10,
  );
  put('forms', 'frm_survey', { title: 'Course survey 課程問卷', responses: 12 }, 50);
  put(
    'school',
    `school_${schoolId}`,
    { name: 'Demo School', locale: 'zh-TW', timeZone: 'Asia/Taipei' },
    400,
  );
  put('appearance', `appearance_${schoolId}`, { primaryColor: '#0f766e', logoUrl: null }, 400);
}
