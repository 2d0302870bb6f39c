import { stringify } from 'csv-stringify/sync';
import type { ProgressSummary } from '../../common/view-models';
import type { CourseProgressRow } from '../db/index';
import { cell } from './csv';
import { readableDateTime, sheetDateTime } from './dates';
import { escapeHtml, printableDocument } from './receipt';
import type { ExportLanguage } from './strings';

/**
 * A student's progress at one school, for an employer or a parent: every course with what is done
 * of it (CSV, one row per course), and a printable page adding this week, the streak and the last
 * weeks. Titles come from the site: every CSV cell goes through the formula guard (csv.ts `cell`),
 * every HTML value is escaped.
 */
export interface ProgressExportOptions {
  readonly language: ExportLanguage;
  readonly timeZone: string;
  readonly site: { readonly label: string; readonly baseUrl: string };
  readonly student: { readonly name: string; readonly email: string } | null;
  readonly generatedAt: Date;
  readonly script?: string;
}

const WORDS = {
  en: {
    title: 'Learning progress',
    school: 'School',
    student: 'Student',
    course: 'Course',
    instructor: 'Instructor',
    enrolled: 'Enrolled',
    percent: 'Progress %',
    lecturesDone: 'Lectures completed',
    lecturesTotal: 'Lectures',
    minutesDone: 'Minutes completed',
    minutesTotal: 'Minutes of content',
    accessEnds: 'Access ends',
    lifetime: 'Lifetime access',
    completedOn: 'Completed',
    zone: (z: string) => `(${z})`,
    thisWeek: 'This week',
    streak: 'Active weeks in a row',
    weeks: 'Recent weeks',
    weekOf: 'Week of (Monday)',
    lectures: 'Lectures completed',
    minutes: 'Minutes of content',
    footer: (when: string) =>
      `Made by Learning Desktop from this computer's offline copy of your school data on ${when}.`,
    weekNote:
      'A lecture counts in the week this app first saw it completed when it synced; lectures completed before the app kept this history are in the totals, not in any week.',
  },
  'zh-TW': {
    title: '學習進度',
    school: '學校',
    student: '學員',
    course: '課程',
    instructor: '講師',
    enrolled: '加入日期',
    percent: '進度 %',
    lecturesDone: '已完成單元',
    lecturesTotal: '單元數',
    minutesDone: '已完成分鐘數',
    minutesTotal: '內容分鐘數',
    accessEnds: '觀看期限',
    lifetime: '永久觀看',
    completedOn: '完成日期',
    zone: (z: string) => `（${z}）`,
    thisWeek: '本週',
    streak: '連續學習週數',
    weeks: '最近幾週',
    weekOf: '週（星期一）',
    lectures: '完成單元',
    minutes: '內容分鐘數',
    footer: (when: string) => `由 Learning Desktop 於 ${when} 依本機離線資料製作。`,
    weekNote:
      '單元計入本程式同步時首次看到它完成的那一週；本程式開始記錄之前完成的單元計入總數，不計入任何一週。',
  },
} satisfies Record<ExportLanguage, unknown>;

const minutes = (seconds: number) => String(Math.round(Math.max(0, seconds) / 60));

/** RFC 4180 CSV with a BOM (see csv.ts): one row per course. */
export function progressCsv(
  courses: readonly CourseProgressRow[],
  options: Pick<ProgressExportOptions, 'language' | 'timeZone' | 'site'>,
): string {
  const w = WORDS[options.language];
  const z = w.zone(options.timeZone);
  const header = [
    w.school,
    w.course,
    w.instructor,
    `${w.enrolled} ${z}`,
    w.percent,
    w.lecturesDone,
    w.lecturesTotal,
    w.minutesDone,
    w.minutesTotal,
    `${w.accessEnds} ${z}`,
    `${w.completedOn} ${z}`,
  ];
  const rows = courses.map((c) => {
    try {
      return [
        cell(options.site.label),
        cell(c.title),
        cell(c.instructorName),
        cell(sheetDateTime(c.enrolledAt, options.timeZone)),
        cell(Math.round(c.percent)),
        cell(c.completedLectures),
        cell(c.totalLectures),
        cell(minutes(c.completedSeconds)),
        cell(minutes(c.totalSeconds)),
        cell(c.hasLifetimeAccess ? w.lifetime : sheetDateTime(c.expireDate, options.timeZone)),
        cell(sheetDateTime(c.completedAt, options.timeZone)),
      ];
    } catch {
      // An export never fails on one bad row.
      return [cell(options.site.label), cell(c?.title), ...Array<string>(9).fill('')];
    }
  });
  return stringify([header, ...rows], {
    bom: true,
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}

/** The printable page: who, where, this week and the streak, every course, the last weeks. */
export function progressReportHtml(
  courses: readonly CourseProgressRow[],
  summary: ProgressSummary,
  options: ProgressExportOptions,
): string {
  const w = WORDS[options.language];
  const e = (v: unknown) => escapeHtml(typeof v === 'string' ? v : String(v ?? ''));
  const when = (iso: string | null) => e(readableDateTime(iso, options.language, options.timeZone));
  const dt = (label: string, value: string) => `<dt>${e(label)}</dt><dd>${value}</dd>`;
  const courseRows = courses
    .map(
      (c) =>
        `<tr><td>${e(c.title)}</td><td class="num">${e(Math.round(c.percent))}</td><td class="num">${e(c.completedLectures)} / ${e(c.totalLectures)}</td><td class="num">${e(minutes(c.completedSeconds))} / ${e(minutes(c.totalSeconds))}</td><td>${c.hasLifetimeAccess ? e(w.lifetime) : when(c.expireDate)}</td><td>${when(c.completedAt)}</td></tr>`,
    )
    .join('');
  const weekRows = summary.weeks
    .map(
      (k) =>
        `<tr><td>${e(k.weekStart)}</td><td class="num">${e(k.lectures)}</td><td class="num">${e(minutes(k.seconds))}</td></tr>`,
    )
    .join('');
  const main = `<main data-report="progress">
<header><div><h1>${e(w.title)}</h1><dl>${options.student ? dt(w.student, `${e(options.student.name)} · ${e(options.student.email)}`) : ''}${dt(w.school, `<strong>${e(options.site.label)}</strong>`)}</dl></div>
<div class="site"><div class="muted">${e(options.site.baseUrl)}</div></div></header>
<section><dl>${dt(w.thisWeek, `${e(summary.thisWeek.lectures)} · ${e(minutes(summary.thisWeek.seconds))} min`)}${dt(w.streak, e(summary.streakWeeks))}</dl></section>
<section><h2>${e(w.course)}</h2><table><thead><tr><th scope="col">${e(w.course)}</th><th scope="col" class="num">${e(w.percent)}</th><th scope="col" class="num">${e(w.lecturesDone)}</th><th scope="col" class="num">${e(w.minutesDone)}</th><th scope="col">${e(w.accessEnds)}</th><th scope="col">${e(w.completedOn)}</th></tr></thead><tbody>${courseRows}</tbody></table></section>
<section><h2>${e(w.weeks)}</h2><table><thead><tr><th scope="col">${e(w.weekOf)}</th><th scope="col" class="num">${e(w.lectures)}</th><th scope="col" class="num">${e(w.minutes)}</th></tr></thead><tbody>${weekRows}</tbody></table><p class="muted">${e(w.weekNote)}</p></section>
<footer><p>${e(w.footer(readableDateTime(options.generatedAt.toISOString(), options.language, options.timeZone)))}</p></footer>
</main>`;
  return printableDocument(w.title, main, options);
}
