import {
  app,
  Menu,
  nativeImage,
  Notification,
  powerMonitor,
  Tray,
  type BrowserWindow,
  type MenuItemConstructorOptions,
} from 'electron';
import { join } from 'node:path';
import {
  notificationLanguage,
  notificationText,
  type DesktopNotification,
  SNOOZE_ACTIONS,
} from '../common/desktop-notifications';
import type { ReminderRuleKind } from '../common/plan-contract';
import type { Settings } from '../common/view-models';
import type { AppCore } from '../core/app-core';
import { loginItemSettings, quitWhenAllWindowsClosed, trayModel } from '../core/desktop/background';

/** Notifications kept referenced at once (a few syncs' worth; the notifier groups notices). */
const MAX_KEPT_NOTIFICATIONS = 20;

/**
 * The installed app's life outside its window, wired to Electron: OS notifications, sync on
 * resume and unlock (powerMonitor), the optional tray icon, start at login. Every decision is the core's
 * (electron/core/desktop/*); this file only calls Electron.
 */
export function installDesktopLife(options: {
  readonly core: AppCore;
  readonly window: () => BrowserWindow | null;
  /** Shows the window, creating it if it was closed. */
  readonly showWindow: () => BrowserWindow;
  readonly initialSettings: Settings;
  readonly log: (line: string) => void;
}): { quitOnAllWindowsClosed(): boolean; close(): void } {
  const { core } = options;
  let settings = options.initialSettings;
  let tray: Tray | null = null;
  let syncing = false;
  const shown = new Set<Notification>();

  // ------------------------------------------------------------------ OS notifications

  const show = (n: DesktopNotification) => {
    if (!Notification.isSupported()) return;
    const language = notificationLanguage(
      settings.language === 'system' ? app.getLocale() : settings.language,
    );
    const { title, body } = notificationText(n, language);
    // Snooze buttons: Electron shows notification actions on macOS only; elsewhere Today offers them.
    const snooze = n.snooze && process.platform === 'darwin' ? n.snooze : null;
    const notification = new Notification({
      title,
      body,
      ...(snooze
        ? { actions: SNOOZE_ACTIONS[language].map((text) => ({ type: 'button' as const, text })) }
        : {}),
    });
    if (snooze)
      notification.on('action', (_event, index) => {
        void core.handlers['reminders:snooze']({
          kind: snooze.kind as ReminderRuleKind,
          items: snooze.items.map((i) => ({ siteId: i.siteId, subjectId: i.subjectId })),
          until: index === 0 ? 'hour' : 'morning',
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
        });
      });
    // Kept until it is done with: a Notification nobody references is garbage-collected while still on screen,
    // and its click is then lost. The oldest go first past a bound.
    shown.add(notification);
    if (shown.size > MAX_KEPT_NOTIFICATIONS) shown.delete(shown.values().next().value!);
    const done = () => shown.delete(notification);
    // A click opens the screen the notification is about.
    notification.on('click', () => {
      done();
      const win = options.showWindow();
      win.webContents.send('app:command', {
        command: 'open-notification',
        screen: n.screen,
        siteId: n.siteId,
      });
    });
    notification.on('close', done);
    notification.on('failed', done);
    notification.show();
  };

  // ------------------------------------------------------------------ tray

  // Packaged: build/icon.png copied beside app.asar (extraResources); from a checkout: the file itself.
  const trayIconPath = () =>
    app.isPackaged
      ? join(process.resourcesPath, 'tray.png')
      : join(app.getAppPath(), 'build', 'icon.png');
  const refreshTray = () => {
    if (!tray) return;
    const model = trayModel({
      unread: core.desktop.unreadTotal(),
      syncing,
      readySites: readySiteCount(),
    });
    tray.setToolTip(model.tooltip);
    tray.setContextMenu(
      Menu.buildFromTemplate(
        model.items.map((item): MenuItemConstructorOptions => {
          switch (item.id) {
            case 'separator':
              return { type: 'separator' };
            case 'unread':
              return { label: item.label, enabled: false };
            case 'open':
              return { label: item.label, click: () => void options.showWindow() };
            case 'sync-now':
              return { label: item.label, enabled: item.enabled, click: () => void syncNow() };
            case 'quit':
              return { label: item.label, click: () => app.quit() };
          }
        }),
      ),
    );
  };
  let readySites = 0;
  const readySiteCount = () => readySites;
  const syncNow = async () => {
    syncing = true;
    refreshTray();
    try {
      await core.syncAll();
    } catch {
      options.log('tray: sync failed');
    } finally {
      syncing = false;
      refreshTray();
    }
  };
  const applyTray = () => {
    if (settings.trayEnabled && !tray) {
      tray = new Tray(nativeImage.createFromPath(trayIconPath()).resize({ width: 16, height: 16 }));
      tray.on('click', () => void options.showWindow());
      refreshTray();
    } else if (!settings.trayEnabled && tray) {
      tray.destroy();
      tray = null;
    }
  };

  // ------------------------------------------------------------------ start at login

  const applyLoginItem = () => {
    const item = loginItemSettings(settings.startAtLogin, process.platform);
    if (item) app.setLoginItemSettings(item);
  };

  // ------------------------------------------------------------------ wiring

  const unsubscribe = core.onEvent((event, payload) => {
    if (event === 'desktop:notification') show(payload as DesktopNotification);
    if (event === 'sites:changed') {
      readySites = (payload as { status: string }[]).filter((s) => s.status === 'ready').length;
      refreshTray();
    }
    if (event === 'data:changed') refreshTray();
    if (event === 'settings:changed') {
      const next = payload as Settings;
      const trayChanged = next.trayEnabled !== settings.trayEnabled;
      const loginChanged = next.startAtLogin !== settings.startAtLogin;
      settings = next;
      if (trayChanged) applyTray();
      if (loginChanged) applyLoginItem();
    }
  });
  const wake = (trigger: 'resume' | 'unlock-screen') => () =>
    void core.desktop.wake(trigger).catch(() => options.log(`${trigger}: sync failed`));
  const onResume = wake('resume');
  const onUnlock = wake('unlock-screen');
  powerMonitor.on('resume', onResume);
  powerMonitor.on('unlock-screen', onUnlock);
  void core.handlers['sites:list'](undefined).then((r) => {
    if (r.ok) readySites = r.value.filter((s) => s.status === 'ready').length;
    applyTray();
  });
  applyLoginItem();

  return {
    quitOnAllWindowsClosed: () => quitWhenAllWindowsClosed(process.platform, settings.trayEnabled),
    close() {
      unsubscribe();
      powerMonitor.off('resume', onResume);
      powerMonitor.off('unlock-screen', onUnlock);
      tray?.destroy();
      tray = null;
    },
  };
}
