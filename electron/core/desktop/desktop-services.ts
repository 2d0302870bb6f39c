/**
 * The installed-app services the composition root adds: auto-update, OS notifications, syncing on
 * wake, and what a sync or sign-out under way means for them. app-core.ts builds this once and
 * spreads its handlers into the contract's; the hosts reach the rest through AppCore.desktop.
 */
import { join } from 'node:path';
import type { DesktopNotification } from '../../common/desktop-notifications';
import type { CoreHandlers, IpcHandlers } from '../../common/ipc-contract';
import { withResults } from '../../common/result';
import { distinctSiteLabel } from '../../common/site-values';
import type {
  ChangeView,
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
import type { ReminderGroup, ReminderKind } from '../db/index';
import { enabledReminders, reminderNotifications } from './reminders';
import { WeeklyDigest } from './weekly-digest';

/** What a host gives to update itself: electron-updater, adapted (electron/main/updater.ts). */
export interface DesktopUpdater {
  readonly port: UpdaterPort;
  readonly subscribe: (listener: (event: UpdaterEvent) => void) => () => void;
}

export interface DesktopServicesDeps {
  readonly dataDir: string;
  readonly now: () => number;
  readonly settings: () => Settings;
  readonly updater: DesktopUpdater | null;
  readonly updatesOff: UpdatesOffReason;
  readonly onUpdateState: (state: UpdateState) => void;
  readonly onNotification: (notification: DesktopNotification) => void;
  readonly readySites: () => readonly SiteSummary[];
  /**
   * Every site in the list: a label another site shares is told apart by its host
   * (common/site-values.ts).
   */
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
   * Reminders by the student's rules (rule-reminders.ts): when given, they replace the fixed ones
   * above, and payment codes are reminded of by their rule instead of the notifier's fixed 24
   * hours.
   */
  readonly ruleReminders?: {
    due(syncedSiteId: string | null): Promise<readonly DesktopNotification[]>;
  };
  /** The change record since an ISO time, every site (the weekly digest). */
  readonly changesSince?: (since: string) => readonly ChangeView[];
  /** A site's name for the notification text (its id when it is gone). */
  readonly siteLabel: (siteId: string) => string;
  readonly log: (line: string, error?: unknown) => void;
  readonly updateCheckIntervalMs?: number;
  readonly updateFirstCheckDelayMs?: number;
}

export type DesktopServicesOptions = DesktopServicesDeps;

export interface DesktopServices {
  /** Counts syncs and sign-outs under way: updates never restart the app during one. */
  track<T>(work: Promise<T>): Promise<T>;
  busy(): boolean;
  readonly updates: UpdateController;
  readonly notifier: Notifier;
  /**
   * Reminders due now, as notifications: after a sync of `syncedSiteId` committed (its first sets
   * its baseline), or on the timer (null). Never throws: a failure is logged and the next run tries
   * again.
   */
  remind(syncedSiteId: string | null): Promise<void>;
  /**
   * The machine woke or was unlocked (powerMonitor): sync, unless one just ran. Resolves true if it
   * synced.
   */
  wake(trigger: WakeTrigger): Promise<boolean>;
  /** Unread notices across the signed-in sites (the tray). */
  unreadTotal(): number;
  readonly handlers: Pick<IpcHandlers, 'updates:get-state' | 'updates:check' | 'updates:restart'>;
  close(): void;
}

/** Syncs and sign-outs under way, counted: updates never restart the app during one. */
export class WorkUnderWay {
  #running = 0;
  readonly #idleListeners = new Set<() => void>();

  async track<T>(work: Promise<T>): Promise<T> {
    this.#running++;
    try {
      return await work;
    } finally {
      this.#running--;
      if (this.#running === 0) for (const l of [...this.#idleListeners]) l();
    }
  }

  busy(): boolean {
    return this.#running > 0;
  }

  /** Calls back each time the last work under way ends; returns the unsubscribe. */
  onIdle(listener: () => void): () => void {
    this.#idleListeners.add(listener);
    return () => this.#idleListeners.delete(listener);
  }
}

/** What the desktop services are made of, made in DesktopParts.open. */
interface DesktopParts {
  readonly deps: DesktopServicesDeps;
  readonly work: WorkUnderWay;
  readonly updates: UpdateController;
  readonly notifier: Notifier;
  readonly notify: (notification: DesktopNotification) => void;
  readonly digest: WeeklyDigest | null;
}

/** The installed-app services (see above) as a part. */
export class DesktopServicesPart implements DesktopServices {
  readonly #deps: DesktopServicesDeps;
  readonly #work: WorkUnderWay;
  readonly #notify: (notification: DesktopNotification) => void;
  readonly updates: UpdateController;
  readonly notifier: Notifier;
  readonly #digest: WeeklyDigest | null;
  readonly handlers: DesktopServices['handlers'];
  #lastWakeSyncAt: number | null = null;

  /** Use DesktopServicesPart.open: the notifier reads what it notified last from disk first. */
  constructor(parts: DesktopParts) {
    this.#deps = parts.deps;
    this.#work = parts.work;
    this.#notify = parts.notify;
    this.updates = parts.updates;
    this.notifier = parts.notifier;
    this.#digest = parts.digest;
    const { updates } = parts;
    this.handlers = withResults<
      Pick<CoreHandlers, 'updates:get-state' | 'updates:check' | 'updates:restart'>
    >({
      'updates:get-state': async () => updates.state(),
      'updates:check': () => updates.check(),
      'updates:restart': async () => updates.restart(),
    });
  }

  static async open(deps: DesktopServicesDeps): Promise<DesktopServicesPart> {
    const work = new WorkUnderWay();
    const updates = createUpdateController({
      updater: deps.updater?.port ?? null,
      offReason: deps.updatesOff,
      ...(deps.updater ? { subscribe: deps.updater.subscribe } : {}),
      isBusy: () => work.busy(),
      onIdle: (l) => work.onIdle(l),
      onChange: deps.onUpdateState,
      now: deps.now,
      log: (line) => deps.log(line),
      ...(deps.updateCheckIntervalMs === undefined
        ? {}
        : { intervalMs: deps.updateCheckIntervalMs }),
      ...(deps.updateFirstCheckDelayMs === undefined
        ? {}
        : { firstCheckDelayMs: deps.updateFirstCheckDelayMs }),
    });
    // Every notification names its site as the site menu does: with its host when another site
    // reads the same.
    const notify = (n: DesktopNotification): void =>
      deps.onNotification({
        ...n,
        siteLabel: distinctSiteLabel({ id: n.siteId, label: n.siteLabel }, deps.sites()),
      });
    const notifier = await createNotifier({
      file: join(deps.dataDir, 'notified.json'),
      // With the student's rules, payment codes are reminded of by their rule, not the fixed 24
      // hours.
      settings: deps.ruleReminders
        ? () => ({ ...deps.settings(), notifyPaymentDue: false })
        : deps.settings,
      now: deps.now,
      payable: deps.payable,
      notices: deps.notices,
      notify,
      onError: (error) => deps.log('notifications: could not be decided or remembered', error),
    });
    return new DesktopServicesPart({
      deps,
      work,
      updates,
      notifier,
      notify,
      digest: await openDigest(deps, notify),
    });
  }

  track<T>(work: Promise<T>): Promise<T> {
    return this.#work.track(work);
  }

  busy(): boolean {
    return this.#work.busy();
  }

  async remind(syncedSiteId: string | null): Promise<void> {
    const deps = this.#deps;
    try {
      // Each reminders' tick and each sync: the digest sends itself when its week is over.
      await this.#digest?.run();
    } catch (error) {
      deps.log('weekly digest: could not be decided or remembered', error);
    }
    try {
      if (deps.ruleReminders) {
        for (const n of await deps.ruleReminders.due(syncedSiteId)) this.#notify(n);
        return;
      }
      const now = deps.now();
      const groups = await deps.runReminders({
        now,
        syncedSiteId,
        enabled: enabledReminders(deps.settings()),
      });
      for (const n of reminderNotifications(groups, deps.siteLabel, now)) this.#notify(n);
    } catch (error) {
      deps.log('reminders: could not be decided or remembered', error);
    }
  }

  async wake(trigger: WakeTrigger): Promise<boolean> {
    const deps = this.#deps;
    const now = deps.now();
    const lastWakeSyncAt = this.#lastWakeSyncAt;
    if (!shouldSyncOnWake({ lastWakeSyncAt, now, readySites: deps.readySites().length }))
      return false;
    this.#lastWakeSyncAt = now;
    await deps.syncAll(trigger);
    return true;
  }

  unreadTotal(): number {
    const deps = this.#deps;
    return deps.readySites().reduce((sum, s) => sum + deps.unreadCount(s.id), 0);
  }

  close(): void {
    this.updates.close();
  }
}

function openDigest(
  deps: DesktopServicesDeps,
  notify: (n: DesktopNotification) => void,
): Promise<WeeklyDigest> | null {
  const changesSince = deps.changesSince;
  if (!changesSince) return null;
  return WeeklyDigest.open({
    file: join(deps.dataDir, 'digest.json'),
    now: deps.now,
    enabled: () => deps.settings().notifyWeeklyDigest,
    changesSince,
    siteLabel: (siteId) =>
      distinctSiteLabel({ id: siteId, label: deps.siteLabel(siteId) }, deps.sites()),
    notify,
  });
}

export function createDesktopServices(deps: DesktopServicesDeps): Promise<DesktopServices> {
  return DesktopServicesPart.open(deps);
}
