/**
 * The app's life in the background, as decisions the Electron host asks for: when to sync on its
 * own, whether closing the last window quits, what the tray shows, how the app starts at login.
 * Pure functions, tested in plain Node; electron/main/background.ts wires them to powerMonitor,
 * Tray and app.setLoginItemSettings.
 */

/**
 * Why the app syncs without being asked. `network-back` and `schedule` are the core's own
 * (app-core.ts).
 */
export type WakeTrigger = 'resume' | 'unlock-screen';

/**
 * A wake that comes within this long of the last automatic sync is not worth another (sleep/wake
 * flapping).
 */
export const WAKE_SYNC_MIN_GAP_MS = 60_000;

/**
 * Whether a resume or unlock should sync now: not twice within a minute (a laptop lid that bounces,
 * resume followed by unlock), and not while signed out of everything.
 */
export function shouldSyncOnWake(input: {
  readonly lastWakeSyncAt: number | null;
  readonly now: number;
  readonly readySites: number;
}): boolean {
  if (input.readySites === 0) return false;
  return input.lastWakeSyncAt === null || input.now - input.lastWakeSyncAt >= WAKE_SYNC_MIN_GAP_MS;
}

/**
 * Closing the last window: on macOS the app stays in the dock, as Mac apps do (Apple HIG);
 * elsewhere it quits, unless the tray icon is on, which is there to keep it running.
 */
export function quitWhenAllWindowsClosed(platform: string, trayEnabled: boolean): boolean {
  if (platform === 'darwin') return false;
  return !trayEnabled;
}

/**
 * The argument the login item starts the app with, so it starts minimized (hidden, in the tray or
 * dock).
 */
export const START_HIDDEN_ARG = '--hidden';

/**
 * app.setLoginItemSettings' input (electron.d.ts Settings): macOS hides the app itself
 * (`openAsHidden`), Windows passes our argument; Linux has no login items in Electron (an autostart
 * .desktop file is the desktop's job).
 */
export function loginItemSettings(
  startAtLogin: boolean,
  platform: string,
): { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] } | null {
  if (platform === 'darwin') return { openAtLogin: startAtLogin, openAsHidden: startAtLogin };
  if (platform === 'win32')
    return { openAtLogin: startAtLogin, args: startAtLogin ? [START_HIDDEN_ARG] : [] };
  return null;
}

/** Whether this start should keep the window hidden: started at login, by the login item. */
export function startHidden(argv: readonly string[], wasOpenedAsHidden: boolean): boolean {
  return wasOpenedAsHidden || argv.includes(START_HIDDEN_ARG);
}

export type TrayItem =
  | { readonly id: 'open' | 'sync-now' | 'quit'; readonly label: string; readonly enabled: boolean }
  | { readonly id: 'unread'; readonly label: string; readonly enabled: false }
  | { readonly id: 'separator' };

/**
 * The tray icon's menu and tooltip. The menu speaks the menu bar's language (English, like the
 * application menu).
 */
export function trayModel(input: {
  readonly unread: number;
  readonly syncing: boolean;
  readonly readySites: number;
}): {
  readonly tooltip: string;
  readonly items: readonly TrayItem[];
} {
  const unread =
    input.unread === 0
      ? 'No unread notices'
      : input.unread === 1
        ? '1 unread notice'
        : `${input.unread > 999 ? '999+' : input.unread} unread notices`;
  return {
    tooltip: input.unread > 0 ? `Learning Desktop: ${unread}` : 'Learning Desktop',
    items: [
      { id: 'open', label: 'Open Learning Desktop', enabled: true },
      { id: 'unread', label: unread, enabled: false },
      { id: 'separator' },
      {
        id: 'sync-now',
        label: input.syncing ? 'Syncing…' : 'Sync Now',
        enabled: !input.syncing && input.readySites > 0,
      },
      { id: 'separator' },
      { id: 'quit', label: 'Quit', enabled: true },
    ],
  };
}
