import type { LibraryFilter, LibraryPage, LibrarySort } from '../../electron/common/view-models';
import { expect, signInThrough, test } from './fixtures';
import {
  SHOTS,
  expectAccessible,
  openScreen,
  scrollToRow,
  startDemo,
  translator,
} from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * The library's power tools in the browser host against both demo schools: filters (a course at 0%
 * is "not started", not "in progress"), orders, the time left on each card, and "All schools". What
 * the screen shows is compared with what the core answers for the same choice.
 */
test('library: filter, sort, time left and all schools', async ({ page, context, host }) => {
  test.setTimeout(120_000);
  const t = translator('en');
  await startDemo(page, context, host);
  const sites = await host.core.handlers['sites:list'](undefined);
  if (!sites.ok) throw new Error(sites.error.message);
  const siteId = sites.value.find((s) => s.status === 'ready')!.id;
  const core = async (
    filter: LibraryFilter,
    sort: LibrarySort = 'service',
  ): Promise<LibraryPage> => {
    const r = await host.core.handlers['library:page']({
      siteId,
      filter,
      sort,
      offset: 0,
      limit: 200,
    });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const cardIds = () =>
    page
      .getByTestId('course-card')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-course-id')));

  // Not started: exactly the core's courses with nothing read, completed or watched, none of them
  // "in progress".
  const notStarted = await core('not-started');
  const inProgress = await core('in-progress');
  expect(notStarted.total + inProgress.total).toBeGreaterThan(0);
  expect(
    inProgress.items.every(
      (c) =>
        c.percent > 0 ||
        c.readLectures > 0 ||
        c.completedLectures > 0 ||
        c.continueWatching !== null,
    ),
  ).toBe(true);
  expect(
    notStarted.items.some((c) => inProgress.items.some((i) => i.courseId === c.courseId)),
  ).toBe(false);
  await page.getByTestId('library-filter').selectOption('not-started');
  if (notStarted.total === 0)
    await expect(page.getByText(t('library.empty.filtered'))).toBeVisible();
  else
    await expect(page.getByTestId('library-count')).toHaveText(
      t('library.count', { count: notStarted.total }),
    );

  // In progress, by title: the cards in the core's order.
  await page.getByTestId('library-filter').selectOption('in-progress');
  await page.getByTestId('library-sort').selectOption('title');
  const byTitle = await core('in-progress', 'title');
  await expect(page.getByTestId('library-count')).toHaveText(
    t('library.count', { count: byTitle.total }),
  );
  await expect
    .poll(cardIds)
    .toEqual(byTitle.items.slice(0, (await cardIds()).length).map((c) => c.courseId));

  // Time left on a started course: its remaining length, and a pace where access ends.
  const withLeft = byTitle.items.find((c) => c.secondsLeft > 0)!;
  const card = page.locator(`[data-testid="course-card"][data-course-id="${withLeft.courseId}"]`);
  await expect(card.getByTestId('time-left')).toContainText(/left/);
  await expectAccessible(page, 'library with filter and sort');
  await page.screenshot({ path: `${SHOTS}/library-tools-en.png` });

  // Everything ending soonest first, then the second school: "All schools" lists both, each card
  // naming its school.
  await page.getByTestId('library-filter').selectOption('all');
  await page.getByTestId('library-sort').selectOption('ending');
  await openScreen(page, 'settings');
  const second = page.getByTestId('site-row').nth(1);
  await signInThrough(page, context, () => second.getByRole('button', { name: 'Sign in' }).click());
  await expect(second).toContainText('Signed in', { timeout: 30_000 });
  await openScreen(page, 'library');
  // The choices made before leaving the screen are still there.
  await expect(page.getByTestId('library-sort')).toHaveValue('ending');
  await page
    .getByTestId('library-scope')
    .getByRole('button', { name: t('library.allSchools') })
    .click();
  const all = await host.core.handlers['library:all-page']({
    filter: 'all',
    sort: 'service',
    offset: 0,
    limit: 500,
  });
  if (!all.ok) throw new Error(all.error.message);
  expect(new Set(all.value.items.map((c) => c.siteId)).size).toBe(2);
  await expect(page.getByTestId('library-count')).toHaveText(
    t('library.count', { count: all.value.total }),
  );
  await expect(page.getByTestId('course-site').first()).toBeVisible();
  await expectAccessible(page, 'library of all schools');
  await page.screenshot({ path: `${SHOTS}/library-all-schools-en.png` });

  // A course of the other school opens with that school selected.
  const other = all.value.items.find((c) => c.siteId !== siteId)!;
  await page.getByTestId('library-sort').selectOption('service');
  await page.getByTestId('library-filter').selectOption('all');
  const otherCard = page
    .locator(`[data-testid="course-card"][data-course-id="${other.courseId}"]`)
    .first();
  await scrollToRow(page, otherCard);
  await otherCard.getByRole('button', { name: other.title }).click();
  await expect(page.locator('#screen-title')).toHaveText(other.title);
});
