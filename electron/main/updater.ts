import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopUpdater } from '../core/desktop/desktop-services';
import type { UpdatesOffReason, UpdaterEvent } from '../core/desktop/updates';
import { describeUpdateError, parseFeedUrl } from '../core/desktop/updates';

/**
 * electron-updater adapted to the core's UpdaterPort (electron/core/desktop/updates.ts decides when to check, download and
 * restart). A generic feed (electron-builder's latest*.yml beside the installers) named in
 * LEARNING_DESKTOP_UPDATE_URL; without one, or run from a checkout, updates are off and Settings says why.
 */
export async function createElectronUpdater(options: {
  readonly isPackaged: boolean;
  readonly feedUrl: string | undefined;
  readonly log: (line: string) => void;
}): Promise<{ readonly updater: DesktopUpdater | null; readonly off: UpdatesOffReason }> {
  if (!options.isPackaged) return { updater: null, off: 'development' };
  const feed = parseFeedUrl(options.feedUrl);
  // A release built with electron-builder's `publish` (a generic feed) carries it in resources/app-update.yml,
  // which electron-updater reads by itself; LEARNING_DESKTOP_UPDATE_URL overrides it (a test feed, a mirror).
  const baked = typeof process.resourcesPath === 'string' && existsSync(join(process.resourcesPath, 'app-update.yml'));
  if (feed === null && !baked) return { updater: null, off: 'no-feed' };
  // Loaded only when used: electron-updater reads the app's metadata as soon as autoUpdater is touched.
  const { default: electronUpdater } = await import('electron-updater');
  const { autoUpdater } = electronUpdater;
  if (feed !== null) autoUpdater.setFeedURL({ provider: 'generic', url: feed });
  // The core downloads in the background itself and restarts only outside a sync or sign-out.
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = true;
  // Its own log lines quote URLs and paths; the core logs the states in plain words instead.
  autoUpdater.logger = null;
  return {
    off: 'no-feed',
    updater: {
      port: {
        checkForUpdates: () => autoUpdater.checkForUpdates(),
        downloadUpdate: () => autoUpdater.downloadUpdate(),
        quitAndInstall: () => autoUpdater.quitAndInstall(),
      },
      subscribe(listener: (event: UpdaterEvent) => void) {
        const handlers = {
          'checking-for-update': () => listener({ type: 'checking-for-update' }),
          'update-available': (info: { version: string }) => listener({ type: 'update-available', version: info.version }),
          'update-not-available': () => listener({ type: 'update-not-available' }),
          'download-progress': (info: { percent: number }) => listener({ type: 'download-progress', percent: info.percent }),
          'update-downloaded': (info: { version: string }) => listener({ type: 'update-downloaded', version: info.version }),
          // Network and signature failures read differently in Settings; details (URLs, paths) never leave here.
          error: (error: Error) => listener({ type: 'error', message: describeUpdateError(error) }),
        };
        autoUpdater.on('checking-for-update', handlers['checking-for-update']);
        autoUpdater.on('update-available', handlers['update-available']);
        autoUpdater.on('update-not-available', handlers['update-not-available']);
        autoUpdater.on('download-progress', handlers['download-progress']);
        autoUpdater.on('update-downloaded', handlers['update-downloaded']);
        autoUpdater.on('error', handlers.error);
        options.log(feed === null ? 'updates: checking the feed this release was built with' : `updates: checking ${new URL(feed).origin}`);
        return () => {
          autoUpdater.off('checking-for-update', handlers['checking-for-update']);
          autoUpdater.off('update-available', handlers['update-available']);
          autoUpdater.off('update-not-available', handlers['update-not-available']);
          autoUpdater.off('download-progress', handlers['download-progress']);
          autoUpdater.off('update-downloaded', handlers['update-downloaded']);
          autoUpdater.off('error', handlers.error);
        };
      },
    },
  };
}
