import { describe, expect, it } from 'vitest';
import {
  loginItemSettings,
  quitWhenAllWindowsClosed,
  shouldSyncOnWake,
  START_HIDDEN_ARG,
  startHidden,
  trayModel,
  WAKE_SYNC_MIN_GAP_MS,
} from '../../../electron/core/desktop/background';

describe('background life: decisions', () => {
  it('closing the last window quits on Windows and Linux unless the tray is on; macOS keeps the dock app', () => {
    expect(quitWhenAllWindowsClosed('win32', false)).toBe(true);
    expect(quitWhenAllWindowsClosed('linux', false)).toBe(true);
    expect(quitWhenAllWindowsClosed('win32', true)).toBe(false);
    expect(quitWhenAllWindowsClosed('linux', true)).toBe(false);
    expect(quitWhenAllWindowsClosed('darwin', false)).toBe(false);
    expect(quitWhenAllWindowsClosed('darwin', true)).toBe(false);
  });

  it('resume or unlock syncs, but not twice within a minute, and not with no signed-in site', () => {
    expect(shouldSyncOnWake({ lastWakeSyncAt: null, now: 1000, readySites: 1 })).toBe(true);
    expect(
      shouldSyncOnWake({
        lastWakeSyncAt: 1000,
        now: 1000 + WAKE_SYNC_MIN_GAP_MS - 1,
        readySites: 1,
      }),
    ).toBe(false);
    expect(
      shouldSyncOnWake({ lastWakeSyncAt: 1000, now: 1000 + WAKE_SYNC_MIN_GAP_MS, readySites: 1 }),
    ).toBe(true);
    expect(shouldSyncOnWake({ lastWakeSyncAt: null, now: 1000, readySites: 0 })).toBe(false);
  });

  it('start at login: macOS opens hidden, Windows passes --hidden, Linux has no login item in Electron', () => {
    expect(loginItemSettings(true, 'darwin')).toEqual({ openAtLogin: true, openAsHidden: true });
    expect(loginItemSettings(false, 'darwin')).toEqual({ openAtLogin: false, openAsHidden: false });
    expect(loginItemSettings(true, 'win32')).toEqual({
      openAtLogin: true,
      args: [START_HIDDEN_ARG],
    });
    expect(loginItemSettings(false, 'win32')).toEqual({ openAtLogin: false, args: [] });
    expect(loginItemSettings(true, 'linux')).toBeNull();
    expect(startHidden(['app', START_HIDDEN_ARG], false)).toBe(true);
    expect(startHidden(['app'], true)).toBe(true);
    expect(startHidden(['app', '--demo'], false)).toBe(false);
  });

  it('the tray menu: open, the unread count, Sync Now (off while syncing or signed out), Quit', () => {
    const m = trayModel({ unread: 3, syncing: false, readySites: 1 });
    expect(m.tooltip).toBe('Learning Desktop: 3 unread notices');
    expect(m.items.map((i) => ('label' in i ? i.label : '—'))).toEqual([
      'Open Learning Desktop',
      '3 unread notices',
      '—',
      'Sync Now',
      '—',
      'Quit',
    ]);
    expect(m.items.find((i) => i.id === 'sync-now')).toMatchObject({ enabled: true });
    expect(
      trayModel({ unread: 0, syncing: true, readySites: 1 }).items.find((i) => i.id === 'sync-now'),
    ).toMatchObject({
      label: 'Syncing…',
      enabled: false,
    });
    expect(
      trayModel({ unread: 0, syncing: false, readySites: 0 }).items.find(
        (i) => i.id === 'sync-now',
      ),
    ).toMatchObject({ enabled: false });
    expect(trayModel({ unread: 1, syncing: false, readySites: 1 }).items[1]).toMatchObject({
      label: '1 unread notice',
    });
    expect(trayModel({ unread: 5000, syncing: false, readySites: 1 }).items[1]).toMatchObject({
      label: '999+ unread notices',
    });
    expect(trayModel({ unread: 0, syncing: false, readySites: 1 }).tooltip).toBe(
      'Learning Desktop',
    );
  });
});
