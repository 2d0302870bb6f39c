/**
 * The installed-app services the composition root adds: auto-update, OS notifications, syncing on wake,
 * and what a sync or sign-out under way means for them. app-core.ts builds this once and spreads its handlers into
 * the contract's; the hosts reach the rest through AppCore.desktop.
 */
import { join } from 'node:path';
import type { DesktopNotification } from '../../common/desktop-notifications';
import type { CoreHandlers, IpcHandlers } from '../../common/ipc-contract';
import { withResults } from '../../common/result';
import { distinctSiteLabel } from '../../common/site-values';
import type {
  NotificationView,
  PaymentView,
  Settings,
  SiteSummary,
  UpdateState,
} from '../../common/view-models';
import {
  createUpdateController,
  type UpdateController,
  type UpdaterEvent,
  type UpdaterPort,
  type UpdatesOffReason,
} from './updates';
import { shouldSyncOnWake, type WakeTrigger } from './background';
import { createNotifier, type Notifier } from './notifier';
import type { ReminderGroup, ReminderKind } from '../db/reminders';
import { enabledReminders, reminderNotifications } from './reminders';

/** What a host gives to update itself: electron-updater, adapted (electron/main/updater.ts). */
export interface DesktopUpdater {
  readonly port: UpdaterPort;
  readonly subscribe: (listener: (event: UpdaterEvent) => void) => () => void;
}

export interface DesktopServicesOptions {
  readonly dataDir: string;
  readonly now: () => number;
  readonly settings: () => Settings;
  readonly updater: DesktopUpdater | null;
  readonly updatesOff: UpdatesOffReason;
  readonly onUpdateState: (state: UpdateState) => void;
  readonly onNotification: (notification: DesktopNotification) => void;
  readonly readySites: () => readonly SiteSummary[];
  /** Every site in the list: a label another site shares is told apart by its host (common/site-values.ts). */
  readonly sites: () => readonly Pick<SiteSummary, 'id' | 'label' | 'baseUrl'>[];
  readonly syncAll: (reason: string) => Promise<unknown>;
  readonly payable: (siteId: string) => readonly PaymentView[];
  readonly notices: (siteId: string) => readonly NotificationView[];
  readonly unreadCount: (siteId: string) => number;
  /** Decides and marks the reminders due (db/reminders.ts, on the database writer's thread). */
  readonly runReminders: (input: {
    readonly now: number;
    readonly syncedSiteId: string | null;
    readonly enabled: Readonly<Record<ReminderKind, boolean>>;
  }) => Promise<readonly ReminderGroup[]>;
  /**
   * Reminders by the student's rules (rule-reminders.ts): when given, they replace the fixed ones above, and
   * payment codes are reminded of by their rule instead of the notifier's fixed 24 hours.
   */
  readonly ruleReminders?: {
    due(syncedSiteId: string | null): Promise<readonly DesktopNotification[]>;
  };
  /** A site's name for the notification text (its id when it is gone). */
  readonly siteLabel: (siteId: string) => string;
  readonly log: (line: string, error?: unknown) => void;
  readonly updateCheckIntervalMs?: number;
  readonly updateFirstCheckDelayMs?: number;
}

export interface DesktopServices {
  /** Counts syncs and sign-outs under way: updates never restart the app during one. */
  track<T>(work: Promise<T>): Promise<T>;
  busy(): boolean;
  readonly updates: UpdateController;
  readonly notifier: Notifier;
  /**
   * Reminders due now, as notifications: after a sync of `syncedSiteId` committed (its first sets its baseline), or
   * on the timer (null). Never throws: a failure is logged and the next run tries again.
   */
  remind(syncedSiteId: string | null): Promise<void>;
  /** The machine woke or was unlocked (powerMonitor): sync, unless one just ran. Resolves true if it synced. */
  wake(trigger: WakeTrigger): Promise<boolean>;
  /** Unread notices across the signed-in sites (the tray). */
  unreadTotal(): number;
  readonly handlers: Pick<IpcHandlers, 'updates:get-state' | 'updates:check' | 'updates:restart'>;
  close(): void;
}

export async function createDesktopServices(
  options: DesktopServicesOptions,
): Promise<DesktopServices> {
  let running = 0;
  const idleListeners = new Set<() => void>();
  const track = async <T>(work: Promise<T>): Promise<T> => {
    running++;
    try {
      return await work;
    } finally {
      running--;
      if (running === 0) for (const l of [...idleListeners]) l();
    }
  };

  const updates = createUpdateController({
    updater: options.updater?.port ?? null,
    offReason: options.updatesOff,
    ...(options.updater ? { subscribe: options.updater.subscribe } : {}),
    isBusy: () => running > 0,
    onIdle: (l) => (idleListeners.add(l), () => idleListeners.delete(l)),
    onChange: options.onUpdateState,
    now: options.now,
    log: (line) => options.log(line),
    ...(options.updateCheckIntervalMs === undefined
      ? {}
      : { intervalMs: options.updateCheckIntervalMs }),
    ...(options.updateFirstCheckDelayMs === undefined
      ? {}
      : { firstCheckDelayMs: options.updateFirstCheckDelayMs }),
  });

  // Every notification names its site as the site menu does: with its host when another site reads the same.
  const notify = (n: DesktopNotification): void =>
    options.onNotification({
      ...n,
      siteLabel: distinctSiteLabel({ id: n.siteId, label: n.siteLabel }, options.sites()),
    });
  const notifier = await createNotifier({
    file: join(options.dataDir, 'notified.json'),
    settings: options.ruleReminders
      ? () => ({ ...options.settings(), notifyPaymentDue: false })
      : options.settings,
    now: options.now,
    payable: options.payable,
    notices: options.notices,
    notify,
    onError: (error) => options.log('notifications: could not be decided or remembered', error),
  });

  let lastWakeSyncAt: number | null = null;
  return {
    track,
    busy: () => running > 0,
    updates,
    notifier,
    async remind(syncedSiteId) {
      try {
        if (options.ruleReminders) {
          for (const n of await options.ruleReminders.due(syncedSiteId)) notify(n);
          return;
        }
        const now = options.now();
        const groups = await options.runReminders({
          now,
          syncedSiteId,
          enabled: enabledReminders(options.settings()),
        });
        for (const n of reminderNotifications(groups, options.siteLabel, now)) notify(n);
      } catch (error) {
        options.log('reminders: could not be decided or remembered', error);
      }
    },
    async wake(trigger) {
      const now = options.now();
      if (!shouldSyncOnWake({ lastWakeSyncAt, now, readySites: options.readySites().length }))
        return false;
      lastWakeSyncAt = now;
      await options.syncAll(trigger);
      return true;
    },
    unreadTotal: () => options.readySites().reduce((sum, s) => sum + options.unreadCount(s.id), 0),
    handlers: withResults<
      Pick<CoreHandlers, 'updates:get-state' | 'updates:check' | 'updates:restart'>
    >({
      'updates:get-state': async () => updates.state(),
      'updates:check': () => updates.check(),
      'updates:restart': async () => updates.restart(),
    }),
    close: () => updates.close(),
  };
}
