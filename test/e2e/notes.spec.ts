import type { Page } from '@playwright/test';
import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { demoServer, openCourse, startDemo, translator } from './helpers-ui';

/** Clicks, and returns the tab the app opened (the "system browser" of the browser host). */
async function opensTab(page: Page, click: () => Promise<void>): Promise<Page> {
  const tab = page.context().waitForEvent('page');
  await click();
  const opened = await tab;
  await opened.waitForLoadState('domcontentloaded');
  return opened;
}

/**
 * A note at a moment of a lecture, as a new student writes one: on the lecture last watched, the
 * editor starts at where they stopped; written at 12:34, it shows in the course, is found from
 * Search and from the Ctrl+K palette by a word of it, and opens the lecture on the school's site at
 * 12:34. Both languages, axe-clean.
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`notes at a moment of a lecture (${lng})`, () => {
    // Signed in from the start: the note is written on the synced copy, not after a sign-in.
    test.use({ locale: lng, signedInDemo: true });
    const t = translator(lng);
    const word = lng === 'en' ? 'zebrafish' : '斑馬魚筆記';

    test('write a note at 12:34, find it by a word, open the lecture there', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      await startDemo(page, context, host);
      const site = demoServer(host);
      const last = site.db
        .prepare(
          "SELECT last_lecture_id AS id, last_position_seconds AS t FROM enrollments WHERE course_id = 'crs_data_analysis'",
        )
        .get() as { id: string; t: number };
      await openCourse(page, 'crs_data_analysis');

      // The lecture last watched: the editor starts at the position the student stopped at.
      const row = page.locator(`[data-testid="lecture-row"][data-lecture-id="${last.id}"]`);
      await row.getByTestId('add-note').click();
      const editor = page.getByTestId('note-editor');
      await expect(editor).toBeVisible();
      const m = Math.floor(last.t / 60);
      await expect(editor.getByTestId('note-at')).toHaveValue(
        `${m}:${String(last.t % 60).padStart(2, '0')}`,
      );
      // Said once: the notes stay on this computer.
      await expect(editor.getByTestId('notes-local-only')).toHaveText(
        new RegExp(t('notes.localOnly').slice(0, 12)),
      );
      await expectAccessible(page, `note editor (${lng})`);
      await page.screenshot({ path: `${SHOTS}/note-editor-${lng}.png` });
      await editor.getByRole('button', { name: t('notes.localOnlyOk') }).click();
      await expect(editor.getByTestId('notes-local-only')).toHaveCount(0);

      await editor.getByTestId('note-at').fill('12:34');
      await editor.getByTestId('note-title').fill(`<b>${word}</b>`);
      await editor.getByTestId('note-body').fill(`The ${word} chart\n- step one`);
      await editor.getByTestId('note-save').click();
      await expect(editor).toBeHidden();

      const notes = page.getByTestId('course-notes');
      await expect(notes.getByTestId('note-item')).toHaveCount(1);
      // The student's text is text: the tag shows as typed, never as markup.
      await expect(notes.getByRole('heading', { name: `<b>${word}</b>` })).toBeVisible();
      await expect(notes.getByTestId('note-open')).toHaveText(t('notes.openAt', { time: '12:34' }));
      await expectAccessible(page, `course with a note (${lng})`);
      await page.screenshot({ path: `${SHOTS}/course-notes-${lng}.png` });

      // Search finds it by a word, with its context.
      await page.getByTestId('search-input').fill(word);
      await page.getByTestId('search-input').press('Enter');
      const found = page.getByTestId('search-notes').getByTestId('note-item');
      await expect(found).toHaveCount(1, { timeout: 15_000 });
      await expect(found).toContainText(t('notes.kindNote'));
      await expectAccessible(page, `search with a note (${lng})`);

      // The palette too; Enter opens the lecture on the school's site at 12:34.
      await page.keyboard.press('Control+K');
      await page.getByTestId('palette-input').fill(word);
      const option = page.locator('[data-testid="palette-option"][data-kind="note"]');
      await expect(option).toHaveCount(1, { timeout: 15_000 });
      const tab = await opensTab(page, async () => {
        await option.click();
      });
      expect(tab.url()).toBe(
        `${site.url}/courses/intro-to-data-analysis/lectures/${last.id}?t=754`,
      );
      // The school's page takes the moment (it stops at the lecture's end when that is sooner).
      await expect(tab.getByTestId('resume-at')).toBeVisible();
      await tab.close();

      // The notes view lists it, newest first, with its school and course.
      await page.getByTestId('nav-notes').click();
      await expect(page.getByTestId('notes-list').getByTestId('note-item')).toHaveCount(1);
      await expectAccessible(page, `notes view (${lng})`);
      await page.screenshot({ path: `${SHOTS}/notes-view-${lng}.png` });
    });
  });
}
