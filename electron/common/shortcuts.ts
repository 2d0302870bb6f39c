/**
 * The keyboard shortcuts, one table for both hosts: the Electron application menu takes its
 * accelerators from it (electron/core/desktop/menu-model.ts), the browser host's page matches key
 * presses against it (renderer keydown handler), and the "Keyboard shortcuts" list in Help and
 * Settings is drawn from it. Pure data and matching: no DOM.
 */

/** The screens Ctrl/Cmd+1..6 open, in the navigation's order. */
export const SHORTCUT_SCREENS = [
  'library',
  'notifications',
  'billing',
  'entitlements',
  'consulting',
  'profile',
] as const;
export type ShortcutScreen = (typeof SHORTCUT_SCREENS)[number];

/**
 * What the application menu or a shortcut asks the page (the `app:command` event) or the host to
 * do.
 */
export type AppCommand =
  | { readonly command: 'open-settings' }
  | { readonly command: 'go'; readonly screen: ShortcutScreen }
  | { readonly command: 'focus-search' }
  | { readonly command: 'sync-now' }
  | { readonly command: 'show-shortcuts' }
  /** Back or Forward across the screens (the page's session history, renderer/src/state/history.ts). */
  | { readonly command: 'history'; readonly direction: 'back' | 'forward' }
  | { readonly command: 'open-palette' }
  /** An OS notification was clicked: the page opens the screen it was about (electron/core/notifier.ts). */
  | {
      readonly command: 'open-notification';
      readonly screen: 'billing' | 'notifications' | 'settings' | 'today';
      readonly siteId: string | null;
      /**
       * A reminder's first item: Today focuses its snooze buttons (the OS's notification offers
       * them on macOS only).
       */
      readonly snooze?: NotificationSnoozeTarget;
    };

/** The item of a reminder whose snooze buttons the click lands on (SnoozeButtons' own props). */
export interface NotificationSnoozeTarget {
  readonly kind: string;
  readonly siteId: string;
  readonly subjectId: string;
}

/** The target of a notification's snooze, from what the notification carries. */
export function snoozeTargetOf(snooze: {
  readonly kind: string;
  readonly items: readonly { readonly siteId: string; readonly subjectId: string }[];
}): NotificationSnoozeTarget | undefined {
  const first = snooze.items[0];
  return first
    ? { kind: snooze.kind, siteId: first.siteId, subjectId: first.subjectId }
    : undefined;
}

export interface Shortcut {
  /** Stable id; its label is `desktop.shortcuts.<id>` in the renderer's i18n files. */
  readonly id: string;
  /**
   * The key as KeyboardEvent.key reports it, and as Electron's accelerator names it after the
   * modifier.
   */
  readonly key: string;
  readonly command: AppCommand;
}

export const SHORTCUTS: readonly Shortcut[] = [
  ...SHORTCUT_SCREENS.map((screen, i) => ({
    id: `go-${screen}`,
    key: String(i + 1),
    command: { command: 'go', screen } as const,
  })),
  { id: 'search', key: 'F', command: { command: 'focus-search' } },
  { id: 'palette', key: 'K', command: { command: 'open-palette' } },
  { id: 'sync-now', key: 'R', command: { command: 'sync-now' } },
  { id: 'settings', key: ',', command: { command: 'open-settings' } },
];

/**
 * Electron's accelerator for a shortcut: Cmd on macOS, Ctrl elsewhere (electron.d.ts Accelerator).
 */
export function acceleratorOf(shortcut: Shortcut): string {
  return `CmdOrCtrl+${shortcut.key}`;
}

/** How the shortcut is written for people on this platform (the list in Help and Settings). */
export function shortcutLabel(shortcut: Shortcut, isMac: boolean): string {
  return isMac ? `⌘${shortcut.key}` : `Ctrl+${shortcut.key}`;
}

/** The parts of a KeyboardEvent the matcher reads. */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/**
 * The shortcut a key press means, or null. Exactly the platform's modifier (Cmd on macOS, Ctrl
 * elsewhere) and no Alt or Shift, so AltGr combinations (Ctrl+Alt on Windows keyboards) and the
 * browser's own Ctrl+Shift+… keys pass.
 */
export function matchShortcut(press: KeyPress, isMac: boolean): Shortcut | null {
  const primary = isMac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (!primary || press.altKey || press.shiftKey) return null;
  const key = press.key.length === 1 ? press.key.toUpperCase() : press.key;
  return SHORTCUTS.find((s) => s.key === key) ?? null;
}
