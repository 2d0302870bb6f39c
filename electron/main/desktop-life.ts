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
import { snoozeTargetOf } from '../common/shortcuts';
import type { ReminderRuleKind } from '../common/plan-contract';
import type { Settings } from '../common/view-models';
import type { AppCore } from '../core/app-core';
import { loginItemSettings, quitWhenAllWindowsClosed, trayModel } from '../core/desktop/background';

/** Notifications kept referenced at once (a few syncs' worth; the notifier groups notices). */
const MAX_KEPT_NOTIFICATIONS = 20;

export interface DesktopLifeDeps {
  readonly core: AppCore;
  readonly window: () => BrowserWindow | null;
  /** Shows the window, creating it if it was closed. */
  readonly showWindow: () => BrowserWindow;
  readonly initialSettings: Settings;
  readonly log: (line: string) => void;
}

/**
 * The installed app's life outside its window, wired to Electron: OS notifications, sync on resume
 * and unlock (powerMonitor), the optional tray icon, start at login. Every decision is the core's
 * (electron/core/desktop/*); this file only calls Electron.
 */
export function installDesktopLife(options: DesktopLifeDeps): DesktopLife {
  return new DesktopLife(options);
}

/**
 * OS notifications: shown in the student's language; a click opens the screen the notice is about.
 */
class DesktopNotifier {
  readonly #showWindow: () => BrowserWindow;
  /**
   * Kept until each is done with: a Notification nobody references is garbage-collected while still
   * on screen, and its click is then lost. The oldest go first past a bound.
   */
  readonly #shown = new Set<Notification>();

  readonly #core: AppCore;

  constructor(deps: { readonly showWindow: () => BrowserWindow; readonly core: AppCore }) {
    this.#showWindow = deps.showWindow;
    this.#core = deps.core;
  }

  show(n: DesktopNotification, settings: Settings): void {
    if (!Notification.isSupported()) return;
    const language = notificationLanguage(
      settings.language === 'system' ? app.getLocale() : settings.language,
    );
    const { title, body } = notificationText(n, language);
    // Snooze buttons: Electron shows notification actions on macOS only; elsewhere Today offers
    // them.
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
        void this.#core.handlers['reminders:snooze']({
          kind: snooze.kind as ReminderRuleKind,
          items: snooze.items.map((i) => ({ siteId: i.siteId, subjectId: i.subjectId })),
          until: index === 0 ? 'hour' : 'morning',
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
        });
      });
    const shown = this.#shown;
    shown.add(notification);
    if (shown.size > MAX_KEPT_NOTIFICATIONS) shown.delete(shown.values().next().value!);
    const done = () => shown.delete(notification);
    // A click opens the screen the notification is about; a reminder's lands on its item, the
    // snooze buttons focused (the only snooze Windows and Linux offer).
    notification.on('click', () => {
      done();
      const win = this.#showWindow();
      const target = n.snooze ? snoozeTargetOf(n.snooze) : undefined;
      win.webContents.send('app:command', {
        command: 'open-notification',
        screen: n.screen,
        siteId: n.siteId,
        ...(target ? { snooze: target } : {}),
      });
    });
    notification.on('close', done);
    notification.on('failed', done);
    notification.show();
  }
}

/** The optional tray icon: unread count, "Sync now", open and quit (the core's trayModel). */
class TrayIcon {
  readonly #core: AppCore;
  readonly #showWindow: () => BrowserWindow;
  readonly #log: (line: string) => void;
  #tray: Tray | null = null;
  #syncing = false;
  #readySites = 0;

  constructor(deps: Pick<DesktopLifeDeps, 'core' | 'showWindow' | 'log'>) {
    this.#core = deps.core;
    this.#showWindow = deps.showWindow;
    this.#log = deps.log;
  }

  /** The sites whose sign-in is ready (from the site list). */
  setReadySites(count: number): void {
    this.#readySites = count;
  }

  /** Shows or removes the icon as the setting says. */
  apply(enabled: boolean): void {
    if (enabled && !this.#tray) {
      this.#tray = new Tray(
        nativeImage.createFromPath(trayIconPath()).resize({ width: 16, height: 16 }),
      );
      this.#tray.on('click', () => void this.#showWindow());
      this.refresh();
    } else if (!enabled && this.#tray) {
      this.destroy();
    }
  }

  destroy(): void {
    this.#tray?.destroy();
    this.#tray = null;
  }

  refresh(): void {
    const tray = this.#tray;
    if (!tray) return;
    const model = trayModel({
      unread: this.#core.desktop.unreadTotal(),
      syncing: this.#syncing,
      readySites: this.#readySites,
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
              return { label: item.label, click: () => void this.#showWindow() };
            case 'sync-now':
              return {
                label: item.label,
                enabled: item.enabled,
                click: () => void this.#syncNow(),
              };
            case 'quit':
              return { label: item.label, click: () => app.quit() };
          }
        }),
      ),
    );
  }

  async #syncNow(): Promise<void> {
    this.#syncing = true;
    this.refresh();
    try {
      await this.#core.syncAll();
    } catch {
      this.#log('tray: sync failed');
    } finally {
      this.#syncing = false;
      this.refresh();
    }
  }
}

/**
 * Packaged: build/icon.png copied beside app.asar (extraResources); from a checkout:
 * the file itself.
 */
function trayIconPath(): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'tray.png')
    : join(app.getAppPath(), 'build', 'icon.png');
}

const readyCount = (sites: readonly { status: string }[]) =>
  sites.filter((s) => s.status === 'ready').length;

export class DesktopLife {
  readonly #notifier: DesktopNotifier;
  readonly #tray: TrayIcon;
  readonly #unsubscribe: () => void;
  readonly #onResume: () => void;
  readonly #onUnlock: () => void;
  #settings: Settings;

  constructor(deps: DesktopLifeDeps) {
    const { core } = deps;
    this.#settings = deps.initialSettings;
    this.#notifier = new DesktopNotifier(deps);
    this.#tray = new TrayIcon(deps);
    this.#unsubscribe = core.onEvent((event, payload) => this.#onEvent(event, payload));
    const wake = (trigger: 'resume' | 'unlock-screen') => () =>
      void core.desktop.wake(trigger).catch(() => deps.log(`${trigger}: sync failed`));
    this.#onResume = wake('resume');
    this.#onUnlock = wake('unlock-screen');
    powerMonitor.on('resume', this.#onResume);
    powerMonitor.on('unlock-screen', this.#onUnlock);
    void core.handlers['sites:list'](undefined).then((r) => {
      if (r.ok) this.#tray.setReadySites(readyCount(r.value));
      this.#tray.apply(this.#settings.trayEnabled);
    });
    this.#applyLoginItem();
  }

  quitOnAllWindowsClosed(): boolean {
    return quitWhenAllWindowsClosed(process.platform, this.#settings.trayEnabled);
  }

  close(): void {
    this.#unsubscribe();
    powerMonitor.off('resume', this.#onResume);
    powerMonitor.off('unlock-screen', this.#onUnlock);
    this.#tray.destroy();
  }

  #onEvent(event: string, payload: unknown): void {
    if (event === 'desktop:notification')
      this.#notifier.show(payload as DesktopNotification, this.#settings);
    if (event === 'sites:changed') {
      this.#tray.setReadySites(readyCount(payload as { status: string }[]));
      this.#tray.refresh();
    }
    if (event === 'data:changed') this.#tray.refresh();
    if (event === 'settings:changed') {
      const next = payload as Settings;
      const trayChanged = next.trayEnabled !== this.#settings.trayEnabled;
      const loginChanged = next.startAtLogin !== this.#settings.startAtLogin;
      this.#settings = next;
      if (trayChanged) this.#tray.apply(next.trayEnabled);
      if (loginChanged) this.#applyLoginItem();
    }
  }

  #applyLoginItem(): void {
    const item = loginItemSettings(this.#settings.startAtLogin, process.platform);
    if (item) app.setLoginItemSettings(item);
  }
}
