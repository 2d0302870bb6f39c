import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import type { DesktopUpdater } from '../core/desktop/desktop-services';
import type { UpdatesOffReason, UpdaterEvent } from '../core/desktop/updates';
import { describeUpdateError, parseFeedUrl, updateErrorKind } from '../core/desktop/updates';

/**
 * What electron-builder's deb and rpm targets write into resources/package-type: the Linux
 * installs that update.
 */
const SELF_UPDATING_LINUX_PACKAGES = new Set(['deb', 'rpm']);

/**
 * Where the feed of a release lives: resources/app-update.yml, written by
 * electron-builder from `publish`.
 */
const appUpdateConfig = (resources: string) => join(resources, 'app-update.yml');

/**
 * Whether this Linux copy was installed by a package electron-updater can replace (it reads
 * the same file).
 */
function linuxPackageUpdates(resources: string): boolean {
  try {
    return SELF_UPDATING_LINUX_PACKAGES.has(
      readFileSync(join(resources, 'package-type'), 'utf8').trim(),
    );
  } catch {
    return false;
  }
}

/**
 * electron-updater adapted to the core's UpdaterPort (electron/core/desktop/updates.ts decides when
 * to check, download and restart). The feed is the one the release was built with: GitHub Releases
 * (build/electron-builder.yml `publish`), which electron-builder writes into
 * resources/app-update.yml. LEARNING_DESKTOP_UPDATE_URL names another, generic feed instead (a
 * mirror, a test feed on loopback). Updates are off, and Settings says why, when run from a
 * checkout, in a Linux copy that no package manager installed (an unpacked folder: nothing can
 * replace it), or without a feed.
 */
export async function createElectronUpdater(options: {
  readonly isPackaged: boolean;
  readonly feedUrl: string | undefined;
  /** Where the override's updater settings are written (the data folder). */
  readonly dataDir: string;
  readonly log: (line: string) => void;
}): Promise<{ readonly updater: DesktopUpdater | null; readonly off: UpdatesOffReason }> {
  if (!options.isPackaged) return { updater: null, off: 'development' };
  // Electron sets it in a packaged app; undefined anywhere else.
  const resources: string | undefined = process.resourcesPath;
  if (typeof resources !== 'string') return { updater: null, off: 'no-feed' };
  // A deb or rpm is replaced by the new package (electron-updater runs dpkg or rpm through
  // pkexec, which asks for the administrator's password); a folder unpacked by hand has no
  // installer to run.
  if (process.platform === 'linux' && !linuxPackageUpdates(resources))
    return { updater: null, off: 'unsupported' };
  const feed = parseFeedUrl(options.feedUrl);
  const baked = existsSync(appUpdateConfig(resources));
  if (feed === null && !baked) return { updater: null, off: 'no-feed' };
  // Loaded only when used: electron-updater reads the app's metadata as soon as
  // autoUpdater is touched.
  const { default: electronUpdater } = await import('electron-updater');
  const { autoUpdater } = electronUpdater;
  if (feed !== null) useFeed(autoUpdater, feed, baked, options.dataDir);
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
        const unsubscribe = subscribeTo(autoUpdater, listener);
        options.log(
          feed === null
            ? 'updates: checking the feed this release was built with'
            : `updates: checking ${new URL(feed).origin}`,
        );
        return unsubscribe;
      },
    },
  };
}

/** LEARNING_DESKTOP_UPDATE_URL: a generic feed instead of the one the release was built with. */
function useFeed(autoUpdater: AppUpdater, feed: string, baked: boolean, dataDir: string): void {
  autoUpdater.setFeedURL({ provider: 'generic', url: feed });
  // electron-updater names its download folder from app-update.yml even when the feed is set here:
  // a copy built without one gets its own, or the download stops at a missing file.
  if (baked) return;
  const config = join(dataDir, 'update-feed.yml');
  writeFileSync(
    config,
    JSON.stringify({
      provider: 'generic',
      url: feed,
      updaterCacheDirName: 'learning-desktop-updater',
    }),
    { mode: 0o600 },
  );
  autoUpdater.updateConfigPath = config;
}

/** electron-updater's events as the core's UpdaterEvents; returns the unsubscribe. */
function subscribeTo(autoUpdater: AppUpdater, listener: (event: UpdaterEvent) => void): () => void {
  const handlers = {
    'checking-for-update': () => listener({ type: 'checking-for-update' }),
    'update-available': (info: { version: string }) =>
      listener({ type: 'update-available', version: info.version }),
    'update-not-available': () => listener({ type: 'update-not-available' }),
    'download-progress': (info: { percent: number }) =>
      listener({ type: 'download-progress', percent: info.percent }),
    'update-downloaded': (info: { version: string }) =>
      listener({ type: 'update-downloaded', version: info.version }),
    // Network and signature failures read differently in Settings; details (URLs, paths)
    // never leave here.
    error: (error: Error) =>
      listener({
        type: 'error',
        kind: updateErrorKind(error),
        message: describeUpdateError(error),
      }),
  };
  autoUpdater.on('checking-for-update', handlers['checking-for-update']);
  autoUpdater.on('update-available', handlers['update-available']);
  autoUpdater.on('update-not-available', handlers['update-not-available']);
  autoUpdater.on('download-progress', handlers['download-progress']);
  autoUpdater.on('update-downloaded', handlers['update-downloaded']);
  autoUpdater.on('error', handlers.error);
  return () => {
    autoUpdater.off('checking-for-update', handlers['checking-for-update']);
    autoUpdater.off('update-available', handlers['update-available']);
    autoUpdater.off('update-not-available', handlers['update-not-available']);
    autoUpdater.off('download-progress', handlers['download-progress']);
    autoUpdater.off('update-downloaded', handlers['update-downloaded']);
    autoUpdater.off('error', handlers.error);
  };
}
