import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { demoServer, startDemo, translator } from './helpers-ui';

/**
 * Today's "Since you last looked": the demo school adds lectures to a course and a product after
 * the first sync; the next sync's changes show on Today by school, a line leads to the course, and
 * once seen they are gone. The first sync records nothing. Both languages, axe-clean.
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`since you last looked (${lng})`, () => {
    test.use({ locale: lng });
    const t = translator(lng);

    test('what changed at the last sync shows on Today once, each line leading to it', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await page.getByTestId('nav-today').click();
      await expect(page.getByTestId('today-continue').first()).toBeVisible();
      // The first sync: everything is new, nothing is listed.
      await expect(page.getByTestId('since-last-looked')).toHaveCount(0);

      const server = demoServer(host);
      const course = server.db
        .prepare("SELECT id, title FROM courses WHERE id = 'crs_data_analysis'")
        .get() as { id: string; title: string };
      const section = server.db
        .prepare('SELECT id FROM sections WHERE course_id = ? ORDER BY position LIMIT 1')
        .get(course.id) as { id: string };
      const insert = server.db.prepare(
        'INSERT INTO lectures (id, course_id, section_id, title, position, duration) VALUES (?, ?, ?, ?, ?, ?)',
      );
      insert.run('lec_e2e_since_1', course.id, section.id, 'Added since', 1001, 240);
      insert.run('lec_e2e_since_2', course.id, section.id, 'Added since, too', 1002, 240);

      await page.getByTestId('sync-now').click();
      const lines = page.getByTestId('since-last-looked').getByTestId('change-line');
      const added = lines.and(page.locator('[data-kind="lectures-new"]'));
      await expect(added).toHaveCount(1, { timeout: 30_000 });
      await expect(added).toHaveText(
        t('changes.kind.lectures-new', { count: 2, title: course.title }),
      );
      await expectAccessible(page, `Today with what changed (${lng})`);
      await page.screenshot({ path: `${SHOTS}/today-since-last-looked-${lng}.png` });

      await added.getByRole('button').click();
      await expect(page.locator('#screen-title')).toHaveText(course.title);
      await page.getByTestId('nav-today').click();
      await expect(page.getByTestId('today-continue').first()).toBeVisible();
      await expect(page.getByTestId('since-last-looked')).toHaveCount(0);
    });
  });
}
