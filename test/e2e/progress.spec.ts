import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { setLectureProgress } from '../../embedded-server/store/content-courses';
import { readCsv } from '../core/export/read-csv';
import { syncNow } from './details-helpers';
import { expect, test } from './fixtures';
import {
  SHOTS,
  demoServer,
  expectAccessible,
  openScreen,
  startDemo,
  translator,
} from './helpers-ui';

/**
 * Progress you can see, in the browser host against the demo school: the student completes lectures
 * on the site, the app's next sync counts them in this week (Today and Profile), the streak starts,
 * each course with an end date has its pace, and the progress leaves as CSV and as a printable
 * page.
 */

type PrintCounted = { __printCalls: number };
async function openPrintView(context: BrowserContext, open: () => Promise<void>): Promise<Page> {
  await context.addInitScript(
    'globalThis.__printCalls = 0; globalThis.print = () => { globalThis.__printCalls += 1; };',
  );
  const [view] = await Promise.all([context.waitForEvent('page'), open()]);
  await view.waitForLoadState('load');
  await expect
    .poll(() => view.evaluate(() => (globalThis as unknown as PrintCounted).__printCalls))
    .toBe(1);
  return view;
}

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(lng, () => {
    test.use({ locale: lng === 'en' ? 'en-US' : 'zh-TW', timezoneId: 'Asia/Taipei' });
    test(`progress (${lng}): this week after a sync, streak, paces, CSV and printable page, axe-clean`, async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      const server = demoServer(host);
      // The first sync is the baseline: nothing counted this week yet.
      await page.getByTestId('nav-today').click();
      const row = page.getByTestId('weekly-progress').getByTestId('school-week').first();
      await expect(row.getByTestId('week-work')).toHaveAttribute('data-lectures', '0');
      await expect(row.getByTestId('progress-streak')).toHaveText(t('progress.noStreak'));

      // The student completes two lectures on the site; the next sync finds them.
      const lectures = server.db
        .prepare(
          `SELECT l.id FROM lectures l LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = 'usr_student'
           WHERE l.course_id = 'crs_data_analysis' AND (p.state IS NULL OR p.state <> 'completed') ORDER BY l.section_id, l.position LIMIT 2`,
        )
        .all() as { id: string }[];
      for (const l of lectures)
        setLectureProgress(
          server.db,
          'usr_student',
          'crs_data_analysis',
          l.id,
          'completed',
          server.clock.now(),
        );
      await syncNow(page);
      await expect(row.getByTestId('week-work')).toHaveAttribute('data-lectures', '2');
      await expect(row.getByTestId('week-work')).toContainText(
        t('progress.lectures', { count: 2 }),
      );
      await expect(row.getByTestId('progress-streak')).toHaveText(
        t('progress.streak', { count: 1 }),
      );
      await expectAccessible(page, `today with this week (${lng})`);
      await page.getByTestId('weekly-progress').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/progress-today-${lng}.png` });

      // Profile: the same week, the paces of courses with an end date, the exports.
      await openScreen(page, 'profile');
      const section = page.getByTestId('progress-section');
      await expect(section.getByTestId('week-work')).toHaveAttribute('data-lectures', '2');
      const ux = section.locator('[data-testid="progress-pace"][data-course-id="crs_ux_writing"]');
      await expect(ux).toBeVisible();
      await expect(ux).toContainText(t('progress.endsIn', { count: 3 }));
      await expect(
        section.locator('[data-testid="progress-pace"][data-course-id="crs_python"]'),
      ).toHaveCount(0);
      await section.scrollIntoViewIfNeeded();
      await expectAccessible(page, `profile with progress (${lng})`);
      await page.screenshot({ path: `${SHOTS}/progress-profile-${lng}.png` });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        section.getByTestId('export-progress-csv').click(),
      ]);
      const rows = readCsv(readFileSync(await download.path()).toString('utf8'));
      expect(download.suggestedFilename()).toMatch(
        /^progress-127\.0\.0\.1-\d{4}-\d{2}-\d{2}\.csv$/,
      );
      expect(rows[0]![1]).toBe(lng === 'en' ? 'Course' : '課程');
      expect(rows.some((r) => r[1]!.startsWith('Intro to Data Analysis'))).toBe(true);

      const view = await openPrintView(context, () =>
        section.getByTestId('export-progress-report').click(),
      );
      await expect(view.locator('main')).toHaveAttribute('data-report', 'progress');
      await expect(view.locator('html')).toHaveAttribute('lang', lng);
      await expectAccessible(view, `printable progress (${lng})`);
      await view.close();
    });
  });
}
