import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { demoServer, openScreen, startDemo, translator } from './helpers-ui';

/**
 * "New since last sync" badges in the library: the demo school adds lectures to a course, the next
 * sync shows the count on that course's card only, and opening the course clears it. Both
 * languages, axe-clean.
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`new since last sync (${lng})`, () => {
    test.use({ locale: lng });
    const t = translator(lng);

    test('a course that gained lectures is badged until it is opened', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await expect(page.getByTestId('new-lectures')).toHaveCount(0);

      const card = page.getByTestId('course-card').first();
      const courseId = (await card.getAttribute('data-course-id'))!;
      const server = demoServer(host);
      const section = server.db
        .prepare('SELECT id FROM sections WHERE course_id = ? ORDER BY position LIMIT 1')
        .get(courseId) as { id: string };
      const insert = server.db.prepare(
        'INSERT INTO lectures (id, course_id, section_id, title, position, duration) VALUES (?, ?, ?, ?, ?, ?)',
      );
      insert.run('lec_e2e_new_1', courseId, section.id, 'Added after the first sync', 1001, 240);
      insert.run(
        'lec_e2e_new_2',
        courseId,
        section.id,
        'Added after the first sync, too',
        1002,
        240,
      );

      await page.getByTestId('sync-now').click();
      const badge = page
        .locator(`[data-testid="course-card"][data-course-id="${courseId}"]`)
        .getByTestId('new-lectures');
      await expect(badge).toHaveText(t('library.newLectures', { count: 2 }), { timeout: 30_000 });
      await expect(page.getByTestId('new-lectures')).toHaveCount(1);
      await expectAccessible(page, `library with a new-lectures badge (${lng})`);
      await page.screenshot({ path: `${SHOTS}/library-new-lectures-${lng}.png` });

      await card.getByRole('button').first().click();
      await expect(page.locator('#screen-title')).toBeVisible();
      await openScreen(page, 'library');
      await expect(
        page.locator(`[data-testid="course-card"][data-course-id="${courseId}"]`),
      ).toBeVisible();
      await expect(page.getByTestId('new-lectures')).toHaveCount(0);
    });
  });
}
