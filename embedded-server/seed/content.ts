import type { Database } from 'better-sqlite3';
import * as courses from '../store/content-courses';
import * as catalog from '../store/content-catalog';
import * as ntf from '../store/content-notifications';
import * as rec from '../store/content-records';
import { createRng, type Rng } from './content-random';
import {
  DAY,
  HOUR,
  STUDENT,
  insertCourseTree,
  insertPaymentSpec,
  seedDemoSite,
} from './content-demo';
import type { SeedContext } from './types';

export interface LargeSeedOptions {
  courses: number;
  lecturesPerCourse: number;
  payments: number;
  notifications: number;
}

export const DEFAULT_LARGE: LargeSeedOptions = {
  courses: 500,
  lecturesPerCourse: 60,
  payments: 5000,
  notifications: 2000,
};

/**
 * Reads `options.large` (createEmbeddedServer({ seedOptions: { large: {...} } })) over the
 * defaults.
 */
export function largeOptions(options: Readonly<Record<string, unknown>>): LargeSeedOptions {
  const given = (options['large'] ?? {}) as Partial<Record<keyof LargeSeedOptions, unknown>>;
  const out = { ...DEFAULT_LARGE };
  for (const k of Object.keys(out) as (keyof LargeSeedOptions)[]) {
    const v = given[k];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) out[k] = v;
  }
  return out;
}

/**
 * Writes the content of the served site (migration 002 tables) with prepared statements in ONE
 * transaction (a savepoint when seed/index.ts already opened one), deterministic for a given (seed,
 * site, now). 'demo' is the hand-written set; 'large' is the demo set plus bulk rows for
 * usr_student.
 */
export function seedContent(db: Database, ctx: SeedContext): void {
  const schoolId = ctx.school.schoolId;
  const rng = createRng(`${ctx.seed}:${ctx.site}`);
  db.transaction(() => {
    if (ctx.site === 'demo') seedDemoSite(db, schoolId, ctx.now, rng);
    else seedDemo2Site(db, schoolId, ctx.now, rng);
    if (ctx.seed === 'large') seedLarge(db, schoolId, ctx.now, rng, largeOptions(ctx.options));
  })();
}

/** The second site: a smaller, different set, so tests can tell two sites apart. */
// eslint-disable-next-line max-lines-per-function -- seed data: rows to insert, not logic
function seedDemo2Site(db: Database, schoolId: string, now: number, rng: Rng): void {
  insertCourseTree(
    db,
    schoolId,
    {
      id: 'crs_d2_baking',
      slug: 'home-baking',
      title: 'Home Baking 居家烘焙',
      description: 'Bread and cakes at home. 在家做麵包與蛋糕。',
      instructor: 'Chef Ann 安主廚',
      price: 1600,
      sections: [{ title: 'Bread 麵包', lectures: ['Flour 麵粉', 'Yeast 酵母', 'Baking 烘烤'] }],
      enrollment: {
        enrolledDaysAgo: 15,
        expiresInDays: 180,
        progress: 0.34,
        lastPositionSeconds: 90,
      },
    },
    now,
    rng,
  );
  insertCourseTree(
    db,
    schoolId,
    {
      id: 'crs_d2_guitar',
      slug: 'guitar-basics',
      title: 'Guitar Basics 吉他入門',
      description: 'Chords and rhythm. 和弦與節奏。',
      instructor: 'Leo Chou 周立歐',
      price: 2000,
      sections: [{ title: 'Chords 和弦', lectures: ['C major C 大調', 'G major G 大調'] }],
      enrollment: { enrolledDaysAgo: 100, progress: 1 },
    },
    now,
    rng,
  );
  insertCourseTree(
    db,
    schoolId,
    {
      id: 'crs_d2_watercolor',
      slug: 'watercolor',
      title: 'Watercolor 水彩入門',
      description: 'Catalog only. 僅目錄。',
      instructor: 'Iris Lo 羅艾莉',
      price: 1200,
      sections: [{ title: 'Washes 渲染', lectures: ['Flat wash 平塗'] }],
    },
    now,
    rng,
  );
  insertPaymentSpec(
    db,
    schoolId,
    {
      id: 'pay_d2_01',
      trade: 'T202611900001',
      amount: 1600,
      type: 'credit_card',
      state: 'paid',
      daysAgo: 15,
      item: {
        type: 'CurriculumPlan',
        id: 'crs_d2_baking',
        title: 'Home Baking 居家烘焙',
        original: 1600,
      },
    },
    now,
  );
  insertPaymentSpec(
    db,
    schoolId,
    {
      id: 'pay_d2_02',
      trade: 'T202611900002',
      amount: 2000,
      type: 'cvs',
      state: 'paid',
      daysAgo: 100,
      item: {
        type: 'CurriculumPlan',
        id: 'crs_d2_guitar',
        title: 'Guitar Basics 吉他入門',
        original: 2000,
      },
    },
    now,
  );
  ntf.insertNotification(db, {
    id: 'ntf_d2_01',
    school_id: schoolId,
    user_id: STUDENT,
    kind: 'announcement',
    title: 'Welcome to Second Demo School 歡迎加入第二示範學院',
    body: 'Enjoy. 祝學習愉快。',
    url: null,
    created_at: now - 5 * HOUR,
    read_at: null,
  });
  ntf.insertNotification(db, {
    id: 'ntf_d2_02',
    school_id: schoolId,
    user_id: STUDENT,
    kind: 'course_update',
    title: 'Baking: new recipe 烘焙新食譜',
    body: 'Sourdough added. 新增酸種麵包。',
    url: '/courses/home-baking',
    created_at: now - 3 * DAY,
    read_at: now - 2 * DAY,
  });
  rec.putRecord(
    db,
    schoolId,
    'school',
    `school_${schoolId}`,
    { name: 'Second Demo School', locale: 'zh-TW', timeZone: 'Asia/Taipei' },
    now - 300 * DAY,
  );
}

const TOPICS_EN = [
  'Statistics',
  'Design',
  'Writing',
  'Cooking',
  'Guitar',
  'Investing',
  'Japanese',
  'Drawing',
  'Excel',
  'Marketing',
];
const TOPICS_ZH = ['統計', '設計', '寫作', '料理', '吉他', '投資', '日語', '繪畫', 'Excel', '行銷'];
const STATES = [
  'paid',
  'paid',
  'paid',
  'paid',
  'not_paid',
  'expired',
  'failed',
  'refunded',
] as const;
const TYPES = ['credit_card', 'atm', 'cvs', 'line_pay', 'apple_pay'] as const;
const KINDS = ['announcement', 'course_update', 'payment', 'event', 'consulting'] as const;

/** Bulk rows for performance work: large course trees, a long payment history, a big inbox. */
// eslint-disable-next-line max-lines-per-function -- seed data: rows to insert, not logic
function seedLarge(
  db: Database,
  schoolId: string,
  now: number,
  rng: Rng,
  o: LargeSeedOptions,
): void {
  const perSection = 10;
  for (let c = 0; c < o.courses; c++) {
    const n = String(c + 1).padStart(4, '0');
    const id = `crs_bulk_${n}`;
    const ti = c % TOPICS_EN.length;
    catalog.insertCourse(db, {
      id,
      school_id: schoolId,
      slug: `bulk-course-${n}`,
      title: `${TOPICS_EN[ti]} Course ${n} ${TOPICS_ZH[ti]}課程 ${n}`,
      description: null,
      cover_image_url: null,
      instructor_name: 'Bulk Instructor 教師',
      price: 1000 + (c % 20) * 100,
      currency: 'TWD',
      is_published: 1,
      created_at: now - 500 * DAY + c * 60_000,
    });
    const done = Math.floor(o.lecturesPerCourse * rng.next());
    let sectionId = '';
    for (let l = 0; l < o.lecturesPerCourse; l++) {
      if (l % perSection === 0) {
        const s = l / perSection + 1;
        sectionId = `sec_bulk_${n}_${s}`;
        catalog.insertSection(db, {
          id: sectionId,
          course_id: id,
          title: `Section ${s} 第 ${s} 章`,
          position: s,
        });
      }
      const lectureId = `lec_bulk_${n}_${l + 1}`;
      catalog.insertLecture(db, {
        id: lectureId,
        course_id: id,
        section_id: sectionId,
        title: `Lecture ${l + 1} 第 ${l + 1} 講`,
        position: (l % perSection) + 1,
        duration: 300 + ((c * 7 + l * 13) % 1500),
        unlock_at: null,
      });
      if (l < done)
        courses.setLectureProgress(
          db,
          STUDENT,
          id,
          lectureId,
          l === done - 1 ? 'read' : 'completed',
          now - (o.lecturesPerCourse - l) * HOUR,
        );
    }
    const lifetime = c % 3 === 0;
    courses.insertEnrollment(db, {
      id: `enr_bulk_${n}`,
      school_id: schoolId,
      user_id: STUDENT,
      course_id: id,
      enrolled_at: now - 400 * DAY + c * HOUR,
      expire_at: lifetime ? null : now + ((c % 400) - 50) * DAY,
      has_lifetime_access: lifetime ? 1 : 0,
      completed_at: done === o.lecturesPerCourse && done > 0 ? now - DAY : null,
      last_lecture_id: done > 0 ? `lec_bulk_${n}_${done}` : null,
      last_position_seconds: done > 0 ? 60 : null,
      last_watched_at: done > 0 ? now - c * 60_000 : null,
    });
  }
  for (let p = 0; p < o.payments; p++) {
    const n = String(p + 1).padStart(5, '0');
    const state = rng.pick(STATES);
    const type = rng.pick(TYPES);
    const amount = rng.int(5, 120) * 100;
    // One purchase in five is paid in two payments: payment p (p % 5 === 1) shares the tradeNo of p
    // - 1.
    const trade = `T2025B${String(p % 5 === 1 ? p - 1 : p).padStart(7, '0')}`;
    const unpaidCode =
      (state === 'not_paid' || state === 'expired') && (type === 'atm' || type === 'cvs');
    insertPaymentSpec(
      db,
      schoolId,
      {
        id: `pay_bulk_${n}`,
        trade,
        amount,
        type,
        state,
        daysAgo: (p * 700) / Math.max(1, o.payments) + 0.01,
        item: {
          type: 'CurriculumPlan',
          id: o.courses > 0 ? `crs_bulk_${String((p % o.courses) + 1).padStart(4, '0')}` : null,
          title: `Bulk purchase ${n} 大量訂單 ${n}`,
          original: amount,
        },
        ...(state === 'refunded' ? { refund: { state: 'refunded', amount } } : {}),
        ...(unpaidCode
          ? {
              instructions: {
                ...(type === 'atm' ? { bankCode: '822', bankName: 'CTBC Bank 中國信託' } : {}),
                codeNo: `${type === 'atm' ? '8221990' : 'LLL'}${n}`,
                expiresInDays: state === 'expired' ? -3 : 3,
              },
            }
          : {}),
      },
      now,
    );
  }
  for (let i = 0; i < o.notifications; i++) {
    const n = String(i + 1).padStart(5, '0');
    const at = now - (i + 1) * 37 * 60_000;
    ntf.insertNotification(db, {
      id: `ntf_bulk_${n}`,
      school_id: schoolId,
      user_id: STUDENT,
      kind: rng.pick(KINDS),
      title: `Bulk notice ${n} 通知 ${n}`,
      body: `Body ${n} 內容 ${n}`,
      url: null,
      created_at: at,
      read_at: i % 4 === 0 ? null : at + HOUR,
    });
  }
}
