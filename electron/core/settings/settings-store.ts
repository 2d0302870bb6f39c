/**
 * The user's preferences (view-models `Settings`). The core reads and writes them through
 * `SettingsStore` so each host keeps them where it belongs: electron-store under Electron
 * (electron/main/electron-settings-store.ts), a JSON file in the data directory for the browser
 * host and tests (below). Preferences are not secrets: no token or client secret ever goes here.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Settings } from '../../common/view-models';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';

export interface SettingsStore {
  /** The saved settings, defaults filled in for anything missing or unreadable. */
  load(): Promise<Settings>;
  save(settings: Settings): Promise<void>;
}

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  autoSyncMinutes: 30,
  language: 'system',
  theme: 'system',
  allowWeakTokenStorage: false,
  notifyPaymentDue: true,
  notifyNewNotices: true,
  notifySignIn: true,
  // On like the other kinds: it says something only in a week when something changed, once.
  notifyWeeklyDigest: true,
  remindAccessEnding: true,
  remindLectureUnlocked: true,
  remindEventStarting: true,
  trayEnabled: false,
  startAtLogin: false,
  lastSiteId: null,
});

/**
 * One field at a time with a fallback, so a hand-edited file with one bad value keeps the user's
 * other choices instead of resetting everything.
 */
const settingsSchema = z.object({
  autoSyncMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .catch(DEFAULT_SETTINGS.autoSyncMinutes),
  language: z.enum(['system', 'en', 'zh-TW']).catch(DEFAULT_SETTINGS.language),
  theme: z.enum(['system', 'light', 'dark']).catch(DEFAULT_SETTINGS.theme),
  allowWeakTokenStorage: z.boolean().catch(DEFAULT_SETTINGS.allowWeakTokenStorage),
  notifyPaymentDue: z.boolean().catch(DEFAULT_SETTINGS.notifyPaymentDue),
  notifyNewNotices: z.boolean().catch(DEFAULT_SETTINGS.notifyNewNotices),
  notifySignIn: z.boolean().catch(DEFAULT_SETTINGS.notifySignIn),
  notifyWeeklyDigest: z.boolean().catch(DEFAULT_SETTINGS.notifyWeeklyDigest),
  remindAccessEnding: z.boolean().catch(DEFAULT_SETTINGS.remindAccessEnding),
  remindLectureUnlocked: z.boolean().catch(DEFAULT_SETTINGS.remindLectureUnlocked),
  remindEventStarting: z.boolean().catch(DEFAULT_SETTINGS.remindEventStarting),
  trayEnabled: z.boolean().catch(DEFAULT_SETTINGS.trayEnabled),
  startAtLogin: z.boolean().catch(DEFAULT_SETTINGS.startAtLogin),
  lastSiteId: z.string().min(1).max(200).nullable().catch(DEFAULT_SETTINGS.lastSiteId),
});

/** Parses anything (a file's JSON, electron-store's object) into complete settings. */
export function normaliseSettings(value: unknown): Settings {
  const base = value !== null && typeof value === 'object' ? value : {};
  return settingsSchema.parse({ ...DEFAULT_SETTINGS, ...base });
}

/** Settings in a JSON file (browser host, tests), replaced atomically on every save. */
export function createJsonSettingsStore(file: string): SettingsStore {
  const queue = createKeyedQueue();
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_SETTINGS };
        throw new CoreError('storage-error', 'Your settings could not be read.', undefined, {
          cause: error,
        });
      }
      try {
        return normaliseSettings(JSON.parse(text));
      } catch {
        // A damaged file is not worth refusing to start over: defaults, and the next save replaces
        // it.
        return { ...DEFAULT_SETTINGS };
      }
    },
    save(settings) {
      const body = JSON.stringify(normaliseSettings(settings), null, 2);
      return queue('settings', () => writeFileAtomic(file, body, 0o600)).catch((cause: unknown) => {
        throw new CoreError('storage-error', 'Your settings could not be saved.', undefined, {
          cause,
        });
      });
    },
  };
}

/** Settings kept in memory only (tests, or a host that persists nothing). */
export function createMemorySettingsStore(initial: Partial<Settings> = {}): SettingsStore {
  let current = normaliseSettings(initial);
  return {
    async load() {
      return { ...current };
    },
    async save(settings) {
      current = normaliseSettings(settings);
    },
  };
}
