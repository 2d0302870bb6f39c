/**
 * Which OS notifications to show, and the memory of what was already shown, kept across restarts in
 * `dataDir/notified.json`. Three kinds:
 * - payment-due: an unpaid ATM or convenience-store payment whose code expires within 24 hours,
 *   once per code;
 * - new-notices: notices that arrived with a sync, unread, newer than anything seen before; one
 *   grouped notification;
 * - sign-in: a site whose sign-in needs renewing, once each time it happens.
 * The first sync of a site only records what is there: data the member already had is never announced.
 * Each kind can be switched off in Settings. Decisions are pure functions over the memory (tested in Node); the
 * notifier reads the offline database, applies them, saves the memory and hands notifications to the host.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { DesktopNotification } from '../../common/desktop-notifications';
import type {
  NotificationView,
  PaymentView,
  Settings,
  SiteSummary,
} from '../../common/view-models';
import { writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';

const PAYMENT_DUE_WINDOW_MS = 24 * 60 * 60 * 1000;

const memorySchema = z.object({
  /** `${siteId} ${paymentId}` → when it was announced. */
  payments: z.record(z.string(), z.string()).catch({}),
  /**
   * siteId → createdAt of the newest notice already seen (announced or there at the first sync).
   */
  notices: z.record(z.string(), z.string()).catch({}),
  /** siteId → when "sign in again" was announced; cleared when the site is ready again. */
  signIn: z.record(z.string(), z.string()).catch({}),
});
export type NotifierMemory = z.infer<typeof memorySchema>;
export const EMPTY_MEMORY: NotifierMemory = { payments: {}, notices: {}, signIn: {} };

type Decision = {
  readonly memory: NotifierMemory;
  readonly notifications: readonly DesktopNotification[];
};

/**
 * A code is announced within 24 h of its expiry, so two days after its announcement it has expired
 * and its mark can go; and the marks are capped, newest kept: a site handing out new codes every
 * sync cannot grow the file without end.
 */
const PAYMENT_MARK_MS = 2 * PAYMENT_DUE_WINDOW_MS;
export const PAYMENT_MARKS_KEPT = 500;

function prunePaymentMarks(
  payments: Readonly<Record<string, string>>,
  now: number,
): Record<string, string> {
  const young = Object.entries(payments).filter(([, at]) => now - Date.parse(at) < PAYMENT_MARK_MS);
  if (young.length > PAYMENT_MARKS_KEPT)
    young.sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0)).length = PAYMENT_MARKS_KEPT;
  return Object.fromEntries(young);
}

/**
 * Unpaid ATM / convenience-store codes expiring within 24 h, each announced once, all of a sync's
 * in one notification: a site with a hundred new codes every sync makes one notification a sync,
 * not a hundred.
 */
export function decidePaymentsDue(
  memory: NotifierMemory,
  site: Pick<SiteSummary, 'id' | 'label'>,
  payable: readonly PaymentView[],
  now: number,
  enabled: boolean,
): Decision {
  const payments = prunePaymentMarks(memory.payments, now);
  const due: { key: string; left: number }[] = [];
  for (const p of payable) {
    const expiresAt =
      typeof p.instructions?.expiredAt === 'string'
        ? Date.parse(p.instructions.expiredAt)
        : Number.NaN;
    if (
      p.paymentState !== 'not_paid' ||
      !p.instructions ||
      p.instructions.isExpired ||
      !Number.isFinite(expiresAt)
    )
      continue;
    const left = expiresAt - now;
    if (left <= 0 || left > PAYMENT_DUE_WINDOW_MS) continue;
    const key = `${site.id} ${p.paymentId}`;
    if (payments[key]) continue;
    payments[key] = new Date(now).toISOString();
    due.push({ key, left });
  }
  const next = { ...memory, payments: prunePaymentMarks(payments, now) };
  // Switched off: remembered all the same, so switching on later does not announce old codes.
  if (!enabled || due.length === 0) return { memory: next, notifications: [] };
  const soonest = Math.min(...due.map((d) => d.left));
  return {
    memory: next,
    notifications: [
      {
        id:
          due.length === 1
            ? `payment-due:${due[0]!.key}`
            : `payment-due:${site.id}:${new Date(now).toISOString()}`,
        kind: 'payment-due',
        siteId: site.id,
        siteLabel: site.label,
        count: Math.max(1, Math.floor(soonest / 3_600_000)),
        ...(due.length > 1 ? { codes: due.length } : {}),
        noticeTitle: null,
        screen: 'billing',
      },
    ],
  };
}

/**
 * Notices newer than the newest one seen before, still unread: one notification for all of them.
 * The first time a site is seen, its newest notice becomes the mark and nothing is announced.
 */
export function decideNewNotices(
  memory: NotifierMemory,
  site: Pick<SiteSummary, 'id' | 'label'>,
  newestFirst: readonly NotificationView[],
  enabled: boolean,
): Decision {
  const newest = newestFirst[0]?.createdAt ?? null;
  const mark = memory.notices[site.id];
  const notices = { ...memory.notices };
  if (newest !== null && (mark === undefined || newest > mark)) notices[site.id] = newest;
  else if (mark === undefined) notices[site.id] = '';
  const next = { ...memory, notices };
  if (mark === undefined || !enabled) return { memory: next, notifications: [] };
  const fresh = newestFirst.filter((n) => n.createdAt > mark && n.readAt === null);
  if (fresh.length === 0) return { memory: next, notifications: [] };
  return {
    memory: next,
    notifications: [
      {
        id: `new-notices:${site.id}:${newest}`,
        kind: 'new-notices',
        siteId: site.id,
        siteLabel: site.label,
        count: fresh.length,
        noticeTitle: fresh.length === 1 ? fresh[0]!.title : null,
        screen: 'notifications',
      },
    ],
  };
}

/** A site that needs a new sign-in, announced once each time it happens. */
export function decideSignIn(
  memory: NotifierMemory,
  sites: readonly Pick<SiteSummary, 'id' | 'label' | 'status'>[],
  now: number,
  enabled: boolean,
): Decision {
  const signIn: Record<string, string> = {};
  const notifications: DesktopNotification[] = [];
  for (const s of sites) {
    if (s.status !== 'sign-in-needed') continue;
    const already = memory.signIn[s.id];
    signIn[s.id] = already ?? new Date(now).toISOString();
    if (already || !enabled) continue;
    notifications.push({
      id: `sign-in:${s.id}:${now}`,
      kind: 'sign-in',
      siteId: s.id,
      siteLabel: s.label,
      count: 0,
      noticeTitle: null,
      screen: 'settings',
    });
  }
  // A site that is ready again (or gone) loses its mark, so the next expiry is announced again.
  return { memory: { ...memory, signIn }, notifications };
}

export interface NotifierOptions {
  readonly file: string;
  readonly settings: () => Pick<Settings, 'notifyPaymentDue' | 'notifyNewNotices' | 'notifySignIn'>;
  readonly now: () => number;
  /** Unpaid ATM / convenience-store payments still payable, soonest first. */
  readonly payable: (siteId: string) => readonly PaymentView[];
  /** The site's notices, newest first (the first page is enough: anything older was seen). */
  readonly notices: (siteId: string) => readonly NotificationView[];
  readonly notify: (notification: DesktopNotification) => void;
  readonly onError?: (error: unknown) => void;
}

export interface Notifier {
  /** After a sync of `site` committed: payment codes and new notices. */
  afterSync(site: Pick<SiteSummary, 'id' | 'label'>): Promise<void>;
  /** The site list changed: sign-ins that need renewing. */
  sitesChanged(sites: readonly Pick<SiteSummary, 'id' | 'label' | 'status'>[]): Promise<void>;
  /** A site was removed: forget it. */
  forget(siteId: string): Promise<void>;
}

async function loadNotifierMemory(file: string): Promise<NotifierMemory> {
  try {
    return memorySchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing or damaged: start from nothing. The first sync after that records without announcing.
    return EMPTY_MEMORY;
  }
}

export async function createNotifier(options: NotifierOptions): Promise<Notifier> {
  let memory = await loadNotifierMemory(options.file);
  const queue = createKeyedQueue();
  const onError = options.onError ?? (() => {});

  // One change at a time, saved before the notifications go out: a crash right after cannot
  // announce twice.
  const apply = (decide: (m: NotifierMemory) => Decision) =>
    queue('notifier', async () => {
      const { memory: next, notifications } = decide(memory);
      if (JSON.stringify(next) !== JSON.stringify(memory)) {
        memory = next;
        await writeFileAtomic(options.file, JSON.stringify(memory), 0o600);
      }
      for (const n of notifications) options.notify(n);
    }).catch(onError);

  return {
    afterSync(site) {
      return apply((m) => {
        const s = options.settings();
        const payments = decidePaymentsDue(
          m,
          site,
          options.payable(site.id),
          options.now(),
          s.notifyPaymentDue,
        );
        const notices = decideNewNotices(
          payments.memory,
          site,
          options.notices(site.id),
          s.notifyNewNotices,
        );
        return {
          memory: notices.memory,
          notifications: [...payments.notifications, ...notices.notifications],
        };
      });
    },
    sitesChanged(sites) {
      return apply((m) => decideSignIn(m, sites, options.now(), options.settings().notifySignIn));
    },
    forget(siteId) {
      return apply((m) => ({
        memory: {
          payments: Object.fromEntries(
            Object.entries(m.payments).filter(([k]) => !k.startsWith(`${siteId} `)),
          ),
          notices: Object.fromEntries(Object.entries(m.notices).filter(([k]) => k !== siteId)),
          signIn: Object.fromEntries(Object.entries(m.signIn).filter(([k]) => k !== siteId)),
        },
        notifications: [],
      }));
    },
  };
}
