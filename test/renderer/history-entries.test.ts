import { describe, expect, it } from 'vitest';
import {
  historyDirection,
  namesAPlace,
  readEntry,
  replacesEntry,
  sameRoute,
} from '../../renderer/src/state/history-entries';

describe('the screens history: entries read back from history.state', () => {
  it('keeps a well-formed route with its site', () => {
    expect(readEntry({ route: { screen: 'course', courseId: 'c1' }, siteId: 's1' })).toEqual({
      route: { screen: 'course', courseId: 'c1' },
      siteId: 's1',
    });
    expect(readEntry({ route: { screen: 'billing', tradeNo: 'T1' } })).toEqual({
      route: { screen: 'billing', tradeNo: 'T1' },
      siteId: null,
    });
  });

  it('keeps Today, the first screen: a reload on it stays there', () => {
    expect(readEntry({ route: { screen: 'today' }, siteId: 's1' })).toEqual({
      route: { screen: 'today' },
      siteId: 's1',
    });
  });

  it('refuses what another page or version stored', () => {
    for (const state of [
      null,
      'x',
      {},
      { route: null },
      { route: { screen: 'admin' } },
      { route: { screen: 'course' } },
      { route: { screen: 'search', query: 3 } },
      { route: { screen: 'billing', tradeNo: 5 } },
    ])
      expect(readEntry(state), JSON.stringify(state)).toBeNull();
  });

  it('drops moments that are not places: an invite outcome, a sign-out to confirm', () => {
    expect(readEntry({ route: { screen: 'add-site', invite: { ok: true } } })?.route).toEqual({
      screen: 'add-site',
    });
    expect(readEntry({ route: { screen: 'settings', intent: { signOut: 's1' } } })?.route).toEqual({
      screen: 'settings',
    });
  });

  it('keeps the Settings section an entry was at, and reads an unknown one as the top of Settings', () => {
    expect(readEntry({ route: { screen: 'settings', section: 'storage' } })?.route).toEqual({
      screen: 'settings',
      section: 'storage',
    });
    expect(
      readEntry({ route: { screen: 'settings', section: 'privacy', intent: { signOut: 's1' } } })
        ?.route,
    ).toEqual({
      screen: 'settings',
      section: 'privacy',
    });
    expect(readEntry({ route: { screen: 'settings', section: 'no-such-part' } })?.route).toEqual({
      screen: 'settings',
    });
    expect(readEntry({ route: { screen: 'settings', section: 7 } })?.route).toEqual({
      screen: 'settings',
    });
    expect(
      sameRoute(
        { screen: 'settings', section: 'storage' },
        { screen: 'settings', section: 'storage' },
      ),
    ).toBe(true);
    expect(
      sameRoute(
        { screen: 'settings', section: 'storage' },
        { screen: 'settings', section: 'about' },
      ),
    ).toBe(false);
    expect(sameRoute({ screen: 'settings' }, { screen: 'settings', section: 'about' })).toBe(false);
  });

  it('one entry per place: the same route is not pushed twice, a search replaces its own entry', () => {
    expect(sameRoute({ screen: 'library' }, { screen: 'library' })).toBe(true);
    expect(
      sameRoute({ screen: 'course', courseId: 'a' }, { screen: 'course', courseId: 'b' }),
    ).toBe(false);
    expect(sameRoute({ screen: 'billing' }, { screen: 'billing', tradeNo: 'T1' })).toBe(false);
    expect(
      sameRoute({ screen: 'settings' }, { screen: 'settings', intent: { signOut: 's' } }),
    ).toBe(false);
    expect(replacesEntry({ screen: 'search', query: 'a' }, { screen: 'search', query: 'ab' })).toBe(
      true,
    );
    expect(replacesEntry({ screen: 'library' }, { screen: 'search', query: 'a' })).toBe(false);
  });
});

describe("Back and Forward keys: those of the installed app's Go menu", () => {
  const press = (
    key: string,
    mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
  ) => ({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  it('Alt+Left and Alt+Right on Linux and Windows', () => {
    expect(historyDirection(press('ArrowLeft', { altKey: true }), false)).toBe('back');
    expect(historyDirection(press('ArrowRight', { altKey: true }), false)).toBe('forward');
    expect(historyDirection(press('ArrowLeft'), false)).toBeNull();
    expect(historyDirection(press('ArrowLeft', { altKey: true, ctrlKey: true }), false)).toBeNull();
    expect(historyDirection(press('[', { ctrlKey: true }), false)).toBeNull();
  });
  it('Cmd+[ and Cmd+] on macOS, not Alt+arrows (they move by word there)', () => {
    expect(historyDirection(press('[', { metaKey: true }), true)).toBe('back');
    expect(historyDirection(press(']', { metaKey: true }), true)).toBe('forward');
    expect(historyDirection(press('ArrowLeft', { altKey: true }), true)).toBeNull();
    expect(historyDirection(press('[', { metaKey: true, shiftKey: true }), true)).toBeNull();
  });
});

describe('where a screen comes back', () => {
  it('at its saved place, unless the route names a place of its own', () => {
    expect(namesAPlace({ screen: 'library' })).toBe(false);
    expect(namesAPlace({ screen: 'course', courseId: 'c1' })).toBe(false);
    expect(namesAPlace({ screen: 'course', courseId: 'c1', lectureId: 'l1' })).toBe(true);
    expect(namesAPlace({ screen: 'billing', tradeNo: 'T1' })).toBe(true);
    expect(namesAPlace({ screen: 'settings', section: 'about' })).toBe(true);
    expect(namesAPlace({ screen: 'search', query: 'data' })).toBe(false);
  });
});
