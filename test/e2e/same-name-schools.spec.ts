import { createEmbeddedServer } from '../../embedded-server/index';
import { expect, SHOTS, test } from './fixtures';
import { startDemo } from './helpers-ui';

/**
 * Two schools that name themselves alike (RFC 9728 resource_name): the real core and renderer in
 * Chromium. The site menu shows each one's host beside the label, so the student can tell which
 * school is which (the OS notifications say the same: test/security/hostile-notifications.test.ts).
 */
// The demo's sign-in is host-sign-in.spec.ts's subject: this one starts signed in.
test.use({ signedInDemo: true });

test('a second school with the same name: the site menu shows both hosts', async ({
  page,
  context,
  host,
}) => {
  test.setTimeout(120_000);
  await startDemo(page, context, host);
  // Another school on another port that names itself exactly like the demo school (RFC 9728
  // resource_name).
  const copy = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  try {
    const added = await host.core.handlers['sites:add']({
      baseUrl: copy.url,
      clientId: 'demo-desktop',
    });
    expect(added.ok).toBe(true);
    const sites = await host.core.handlers['sites:list'](undefined);
    const labels = sites.ok ? sites.value.map((s) => s.label) : [];
    expect(new Set(labels).size).toBeLessThan(labels.length);
    await page.getByTestId('site-switcher').click();
    await expect(page.getByTestId('site-menu-host')).toHaveCount(2);
    const hosts = await page.getByTestId('site-menu-host').allTextContents();
    expect(hosts.map((h) => h.replace(/^\s*·\s*/, ''))).toContain(new URL(copy.url).host);
    expect(hosts).toHaveLength(2);
    await page.screenshot({ path: `${SHOTS}/site-menu-same-name-en.png` });
  } finally {
    await copy.close();
  }
});
