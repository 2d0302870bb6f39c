import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteSummary } from '../../electron/common/view-models';
import { createAppCore, type AppCore } from '../../electron/core/app-core';
import { createMemorySettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { ScriptedBrowser, parseForms } from '../helpers/scripted-browser';
import { invoke, valueOf } from '../helpers/test-core';
import { dispatch } from '../../electron/core/ipc-dispatch';

/**
 * "Take me there": the core opens the school's own page for a course, a lecture (at the position to
 * resume), an order and a consulting service, and the page it opens is the site's real page. One
 * scripted browser plays the system browser throughout, so the site's session from the app's
 * sign-in carries over, as in a student's browser.
 */
describe('site:open-page over a real site', () => {
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let site: SiteSummary;
  const browser = new ScriptedBrowser();
  const opened: string[] = [];

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-core-'));
    core = await createAppCore({
      dataDir,
      version: '0.0.0-test',
      host: 'browser',
      settingsStore: createMemorySettingsStore({ autoSyncMinutes: 0 }),
      demo: { enabled: false },
      signInTimeoutMs: 20_000,
      openExternal: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri');
        if (redirect) {
          void browser
            .authorize(url, {
              stopAt: redirect,
              email: 'student@example.com',
              password: 'student-demo',
              decision: 'approve',
            })
            .then((callback) => fetch(callback).then((r) => r.text()));
        } else opened.push(url);
      },
    });
    site = valueOf(
      await invoke(core.handlers, 'sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }),
    );
    valueOf(await invoke(core.handlers, 'sites:sign-in', { siteId: site.id }));
    valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const open = (page: unknown) =>
    dispatch(core.handlers, 'site:open-page', { siteId: site.id, page });

  it('opens the lecture to continue at its position, and the site shows playback resuming there', async () => {
    const enrollment = server.db
      .prepare(
        "SELECT last_lecture_id AS id, last_position_seconds AS t FROM enrollments WHERE course_id = 'crs_data_analysis'",
      )
      .get() as { id: string; t: number };
    const { url } = valueOf(
      await open({ kind: 'lecture', courseId: 'crs_data_analysis', lectureId: enrollment.id }),
    ) as { url: string };
    expect(url).toBe(
      `${server.url}/courses/intro-to-data-analysis/lectures/${enrollment.id}?t=${enrollment.t}`,
    );
    expect(opened.at(-1)).toBe(url);
    const r = await browser.navigate(url);
    if (!('page' in r)) throw new Error('expected a page');
    // Signed in already by the app's sign-in in the same browser: straight to the lecture.
    expect(r.page.url).toBe(url);
    expect(r.page.html).toContain(`data-position="${enrollment.t}"`);
  });

  it('opens a course, an order and a consulting service on the site’s own origin', async () => {
    const course = valueOf(await open({ kind: 'course', courseId: 'crs_python' })) as {
      url: string;
    };
    expect(course.url).toBe(`${server.url}/courses/python-for-beginners`);
    const order = valueOf(await open({ kind: 'order', tradeNo: 'T202611000004' })) as {
      url: string;
    };
    expect(order.url).toBe(`${server.url}/orders/T202611000004`);
    const consulting = valueOf(
      await open({ kind: 'consulting', serviceId: 'csv_data_mentoring' }),
    ) as { url: string };
    const page = await browser.navigate(consulting.url);
    expect('page' in page && page.page.status).toBe(200);
    for (const u of [course.url, order.url]) {
      const p = await browser.navigate(u);
      expect('page' in p && p.page.status).toBe(200);
    }
  });

  it('opens nothing for a locked lecture or something not in the saved copy', async () => {
    const before = opened.length;
    const locked = server.db
      .prepare(
        "SELECT id FROM lectures WHERE course_id = 'crs_machine_learning' AND unlock_at IS NOT NULL LIMIT 1",
      )
      .pluck()
      .get() as string;
    const refused = await open({
      kind: 'lecture',
      courseId: 'crs_machine_learning',
      lectureId: locked,
    });
    expect(refused.ok === false && refused.error.code).toBe('forbidden');
    const missing = await open({ kind: 'order', tradeNo: 'T-nobody' });
    expect(missing.ok === false && missing.error.code).toBe('not-found');
    const bad = await open({ kind: 'somewhere', url: 'https://evil.example' });
    expect(bad.ok === false && bad.error.code).toBe('invalid-input');
    expect(opened.length).toBe(before);
  });

  it('is reached with the form a signed-out browser gets first', async () => {
    // A browser without the site's session is sent to sign in, and comes back to the page.
    const fresh = new ScriptedBrowser();
    const { url } = valueOf(await open({ kind: 'course', courseId: 'crs_python' })) as {
      url: string;
    };
    const r = await fresh.navigate(url);
    if (!('page' in r)) throw new Error('expected a page');
    expect(r.page.url).toContain('/sign-in?return_to=');
    const back = await fresh.submit(r.page.url, parseForms(r.page.html)[0]!, {
      email: 'student@example.com',
      password: 'student-demo',
    });
    expect('page' in back && back.page.url).toBe(url);
  });
});
