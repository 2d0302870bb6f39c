import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_FILE, readFirstScreen } from '../../electron/core/desktop/first-screen';
import { syncedDemo, valueOf, type SyncedDemo, invoke } from '../helpers/test-core';
import { dispatch } from '../../electron/core/ipc-dispatch';

/**
 * The first frame from the last session through the core's contract, over a real synced demo site:
 * kept for a school with data, and gone with that data or with the appearance it was drawn in.
 */
describe('app core: the next start’s first frame', () => {
  let demo: SyncedDemo;
  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-first-screen-core-' });
  }, 60_000);
  afterAll(async () => demo?.close());

  const frame = (siteIds: string[]) => ({
    html: '<div class="layout"><li data-frame-testid="today-continue">A course</li></div>',
    build: 'index-AbC123.js',
    lang: 'en',
    dir: 'ltr' as const,
    theme: null,
    siteIds,
  });
  const save = async (siteIds: string[]) =>
    valueOf(await invoke(demo.core.handlers, 'app:save-first-screen', frame(siteIds)));

  it('keeps the frame of a school with data; refuses one naming a school it does not have; checks its input', async () => {
    expect(await save(['site-unknown'])).toEqual({ saved: false });
    expect(existsSync(join(demo.dataDir, FIRST_SCREEN_FILE))).toBe(false);
    expect(await save([demo.site.id])).toEqual({ saved: true });
    expect(readFirstScreen(demo.dataDir)).toMatchObject({ siteIds: [demo.site.id], lang: 'en' });
    // Refused input: dispatch itself, untyped.
    const refused = await dispatch(demo.core.handlers, 'app:save-first-screen', {
      ...frame([demo.site.id]),
      html: 1,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('forgets it when the language or theme changes, not for another setting', async () => {
    expect(await save([demo.site.id])).toEqual({ saved: true });
    const settings = valueOf(await invoke(demo.core.handlers, 'settings:get', undefined));
    valueOf(
      await invoke(demo.core.handlers, 'settings:update', {
        notifyNewNotices: !settings.notifyNewNotices,
      }),
    );
    expect(readFirstScreen(demo.dataDir)).not.toBeNull();
    valueOf(
      await invoke(demo.core.handlers, 'settings:update', {
        theme: settings.theme === 'dark' ? 'light' : 'dark',
      }),
    );
    expect(readFirstScreen(demo.dataDir)).toBeNull();
  });

  it('forgets it with the school’s data: signing out with "remove my data"', async () => {
    expect(await save([demo.site.id])).toEqual({ saved: true });
    valueOf(
      await invoke(demo.core.handlers, 'sites:sign-out', {
        siteId: demo.site.id,
        removeData: true,
      }),
    );
    expect(readFirstScreen(demo.dataDir)).toBeNull();
    // With its data gone, a late save naming it (a window that drew it a moment before) is refused.
    expect(await save([demo.site.id])).toEqual({ saved: false });
    expect(readFirstScreen(demo.dataDir)).toBeNull();
  });
});
