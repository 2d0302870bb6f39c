import { expect, SHOTS, test } from './fixtures';
import { demoServer, startDemo, translator } from './helpers-ui';

/**
 * A school with more notices than one sync reads (over the 1,000-page bound at 100 a page): the
 * real demo site over HTTP, the real sync, worker and database, the real renderer in Chromium. The
 * newest are kept, the rest of the sync completes, and the site's banners say so once, as a note
 * rather than an error.
 */
const en = translator('en');

test('a very long notice history: the newest are kept and the banner says so, not an error', async ({
  page,
  context,
  host,
}) => {
  test.setTimeout(240_000);
  await startDemo(page, context, host);
  const server = demoServer(host);
  const { school_id, user_id } = server.db
    .prepare("SELECT school_id, user_id FROM notifications WHERE id = 'ntf_demo_01'")
    .get() as {
    school_id: string;
    user_id: string;
  };
  const insert = server.db.prepare(
    'INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)',
  );
  const old = Date.UTC(2020, 0, 1);
  server.db.transaction(() => {
    for (let i = 0; i < 100_050; i++)
      insert.run(
        `ntf_hist_${i}`,
        school_id,
        user_id,
        'announcement',
        `Old notice ${i}`,
        '',
        old - i * 60_000,
        old,
      );
  })();
  const [run] = await host.core.syncAll();
  expect(run).toMatchObject({
    outcome: 'completed',
    error: null,
    keptNewest: [{ part: 'notifications', kept: 100_000 }],
  });

  const banner = page.getByTestId('kept-newest');
  await expect(banner).toHaveText(
    en('sync.keptNewestNotices', { site: 'Demo School', kept: (100_000).toLocaleString('en') }),
    { timeout: 30_000 },
  );
  await expect(banner).toHaveClass(/\binfo\b/);
  await expect(page.getByTestId('sync-error')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/notices-kept-newest-en.png` });
});
