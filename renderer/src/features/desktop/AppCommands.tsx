import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  notificationLanguage,
  notificationText,
  REMINDER_NOTIFICATION_KINDS,
  type DesktopNotification,
  type ReminderNotificationKind,
} from '../../../../electron/common/desktop-notifications';
import {
  matchShortcut,
  snoozeTargetOf,
  type AppCommand,
} from '../../../../electron/common/shortcuts';
import { call, onEvent } from '../../api';
import { useApp } from '../../state/context';
import { historyDirection } from '../../state/history-entries';
import { Dialog } from '../../ui/Dialog';
import { browserIsMac, useHostInfo } from '../../state/platform';
import { ShortcutsList } from './ShortcutsList';
import { CommandPalette } from '../palette/index';
import { askBrowserOnce, focusSnoozeOf, ReminderPrompt } from '../reminders/index';

/**
 * Carries out what the application menu, a keyboard shortcut or an OS notification's click asks
 * for. In Electron the menu's accelerators catch the keys and send `app:command`; the browser host
 * has no menu, so the page matches key presses against the same table
 * (electron/common/shortcuts.ts) itself.
 */
export function AppCommands() {
  const { t, i18n } = useTranslation();
  const { navigate, site, sites, selectSite } = useApp();
  const info = useHostInfo();
  const [showShortcuts, setShowShortcuts] = useState(false);
  const [showPalette, setShowPalette] = useState(false);

  const run = useCallback(
    (c: AppCommand) => {
      switch (c.command) {
        case 'open-settings':
          return navigate({ screen: 'settings' });
        case 'go':
          return navigate({ screen: c.screen });
        case 'focus-search': {
          const input = document.querySelector<HTMLInputElement>('[data-testid="search-input"]');
          input?.focus();
          input?.select();
          return;
        }
        case 'sync-now':
          if (site?.status === 'ready')
            void call('sync:now', { siteId: site.id }).catch(() => undefined);
          return;
        case 'show-shortcuts':
          return setShowShortcuts(true);
        case 'open-palette':
          return setShowPalette(true);
        case 'history':
          return c.direction === 'back' ? history.back() : history.forward();
        case 'open-notification':
          if (c.siteId && sites.some((s) => s.id === c.siteId)) selectSite(c.siteId);
          navigate({ screen: c.screen });
          if (c.snooze) focusSnoozeOf(c.snooze);
          return;
      }
    },
    [navigate, site, sites, selectSite],
  );

  useEffect(() => onEvent('app:command', run), [run]);

  const browserHost = info !== undefined && info.host !== 'electron';

  // OS notifications: the Electron host shows them itself; in the browser host the page does,
  // through the Web Notifications API, once the browser allowed it (Settings asks, or the first
  // reminder does: ReminderPrompt).
  const showWeb = useCallback(
    (n: DesktopNotification) => {
      const { title, body } = notificationText(n, notificationLanguage(i18n.language));
      const shown = new Notification(title, { body, tag: n.id });
      shown.onclick = () => {
        window.focus();
        const target = n.snooze ? snoozeTargetOf(n.snooze) : undefined;
        run({
          command: 'open-notification',
          screen: n.screen,
          siteId: n.siteId,
          ...(target ? { snooze: target } : {}),
        });
        shown.close();
      };
    },
    [i18n, run],
  );
  const [pendingReminder, setPendingReminder] = useState<DesktopNotification | null>(null);
  const reminderPromptDeclined = useRef(false);
  useEffect(() => {
    if (!browserHost || typeof Notification === 'undefined') return;
    return onEvent('desktop:notification', (n) => {
      if (Notification.permission === 'granted') return showWeb(n);
      if (
        Notification.permission === 'default' &&
        !reminderPromptDeclined.current &&
        REMINDER_NOTIFICATION_KINDS.includes(n.kind as ReminderNotificationKind)
      )
        setPendingReminder(n);
    });
  }, [browserHost, showWeb]);
  // The mouse's back and forward buttons: a browser walks the page's history itself; Electron's
  // window does not.
  const electron = info?.host === 'electron';
  useEffect(() => {
    if (!electron) return;
    const onButton = (e: MouseEvent) => {
      if (e.button === 3) history.back();
      else if (e.button === 4) history.forward();
    };
    window.addEventListener('mouseup', onButton);
    return () => window.removeEventListener('mouseup', onButton);
  }, [electron]);
  useEffect(() => {
    if (!browserHost) return;
    const isMac = browserIsMac();
    const onKey = (e: KeyboardEvent) => {
      const direction = historyDirection(e, isMac);
      if (direction) {
        e.preventDefault();
        return run({ command: 'history', direction });
      }
      const shortcut = matchShortcut(e, isMac);
      if (!shortcut) return;
      // The browser's own Ctrl+R / Ctrl+F / Ctrl+1 would reload, find or switch tabs: the app's
      // meaning wins.
      e.preventDefault();
      run(shortcut.command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [browserHost, run]);

  return (
    <>
      {pendingReminder && (
        <ReminderPrompt
          onAllow={() =>
            void askBrowserOnce().then((permission) => {
              if (permission === 'granted') showWeb(pendingReminder);
              setPendingReminder(null);
            })
          }
          onLater={() => {
            reminderPromptDeclined.current = true;
            setPendingReminder(null);
          }}
        />
      )}
      <CommandPalette
        open={showPalette}
        onClose={() => setShowPalette(false)}
        onShowShortcuts={() => setShowShortcuts(true)}
      />
      <Dialog
        open={showShortcuts}
        title={t('desktop.shortcuts.title')}
        onClose={() => setShowShortcuts(false)}
        testId="shortcuts-dialog"
      >
        <ShortcutsList />
        <div className="row end">
          <button type="button" className="button" onClick={() => setShowShortcuts(false)}>
            {t('common.close')}
          </button>
        </div>
      </Dialog>
    </>
  );
}
