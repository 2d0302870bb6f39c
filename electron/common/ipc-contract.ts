/**
 * The one IPC contract (after GitHub Desktop's ipc-shared.ts): channel -> input schema + output
 * type. Main-process handlers, the preload bridge, the browser host and the renderer's api type are
 * all derived from this map, so a channel cannot exist in one place and not the others. Inputs are
 * validated with zod at the receiving side because the renderer is untrusted.
 */
import { z } from 'zod';
import { assistantChannels } from './assistant-contract';
import type { ProductOfflineView } from './downloads';
import type { DoctorReport } from './doctor';
import { FIRST_SCREEN_MAX_BYTES } from './first-screen';
import type { InviteOutcome, SaveOutcome } from './files-and-invites';
import type { Result } from './result';
import type { DesktopNotification } from './desktop-notifications';
import { feedChannels, planChannels, reminderChannels } from './plan-contract';
import type { AppCommand } from './shortcuts';
import { SEARCH_HIT_KINDS } from './views/settings';
import { archiveChannels, type ArchiveProgress } from './archive-contract';
import { changeChannels } from './changes-contract';
import { noteChannels } from './notes-contract';
import { downloadChannels } from './downloads-contract';
import { demoChannels } from './demo-contract';
import { PAGE_LIMIT_MAX, type EVENT_NAMES } from './ipc-names';
import type {
  AppInfo,
  BillingSummary,
  BillingView,
  ConsultingServiceView,
  CourseDetail,
  EntitlementsView,
  LibraryCourse,
  LibraryPage,
  NotificationsSummary,
  NotificationsView,
  NotificationSubscriptionView,
  NotificationView,
  NoticeTarget,
  OrderView,
  YearSpending,
  ProgressSummary,
  Page,
  PaymentView,
  ProfileView,
  SearchHit,
  Settings,
  SignInProgress,
  SignOutResult,
  SiteSummary,
  SyncProgress,
  SyncRunSummary,
  SyncStatus,
  TokenProtection,
  UpdateState,
  TodayView,
} from './view-models';
import { LIBRARY_FILTERS, LIBRARY_SORTS, ORDER_FILTERS } from './view-models';

// zod 4 compiles each object schema into a function (new Function) at its first parse: ~80 ms of
// the first calls at a cold start, for inputs of a few fields where the compiled path gains
// nothing. (The window's CSP forbids eval, so there zod already runs without it.)
// https://zod.dev/packages/core#jitless
z.config({ jitless: true });

/** A channel's declaration: its input schema, and its output type carried as a phantom. */
export interface ChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly __output?: O;
}

function channel<O>() {
  return <I extends z.ZodType>(input: I): ChannelSpec<I, O> => ({ input });
}

const none = z.undefined();
const siteId = z.string().min(1).max(100);
const bySite = z.object({ siteId }).strict();
const fileLanguage = z.enum(['en', 'zh-TW']);

/** Where a page starts and how long it is; both optional (first page of 50). */
const pageOf = {
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(50),
};

export const ipcContract = {
  'app:get-info': channel<AppInfo>()(none),
  /**
   * The opening screen (Today) as the window shows it now, kept for the next cold start's first
   * frame (common/first-screen.ts). Not saved when it names a school without data here, or fails
   * the core's checks.
   */
  'app:save-first-screen': channel<{ saved: boolean }>()(
    z
      .object({
        html: z.string().max(FIRST_SCREEN_MAX_BYTES),
        build: z.string().min(1).max(200),
        lang: z.string().min(2).max(35),
        dir: z.enum(['ltr', 'rtl']),
        theme: z.enum(['light', 'dark']).nullable(),
        siteIds: z.array(siteId).max(100),
      })
      .strict(),
  ),

  'sites:list': channel<SiteSummary[]>()(none),
  /**
   * A school's address read without adding it (its sign-in description only): the welcome screen
   * says who can create an application ID when the student has none (spec: member clients are
   * created by the operator, no self-serve).
   */
  'sites:check': channel<{ baseUrl: string; label: string }>()(
    z.object({ baseUrl: z.string().min(1).max(2048) }).strict(),
  ),
  'sites:add': channel<SiteSummary>()(
    z
      .object({
        baseUrl: z.string().min(1).max(2048),
        clientId: z.string().min(1).max(2048),
        clientSecret: z.string().min(1).max(1024).optional(),
      })
      .strict(),
  ),
  /** Adds the demo site(s) served by the embedded server, starting it if needed. */
  'sites:add-demo': channel<SiteSummary[]>()(none),
  /**
   * Resolves when the sign-in completes (or fails); progress arrives as `sign-in:progress` events.
   */
  'sites:sign-in': channel<SiteSummary>()(bySite),
  'sites:cancel-sign-in': channel<void>()(bySite),
  'sites:sign-out': channel<SignOutResult>()(
    z.object({ siteId, removeData: z.boolean() }).strict(),
  ),
  /** Signs out (revoking) if needed and deletes the site and all its offline data. */
  'sites:remove': channel<void>()(bySite),

  'sync:now': channel<SyncRunSummary>()(bySite),
  'sync:cancel': channel<void>()(bySite),
  'sync:status': channel<SyncStatus>()(bySite),

  /** The whole library (tests, scripts); the screen pages through `library:page`. */
  'library:list': channel<LibraryCourse[]>()(bySite),
  /** Courses in the service's order, filtered at read time. */
  'library:page': channel<LibraryPage>()(
    z
      .object({
        siteId,
        ...pageOf,
        filter: z.enum(LIBRARY_FILTERS).default('all'),
        sort: z.enum(LIBRARY_SORTS).default('service'),
      })
      .strict(),
  ),
  /** The "All schools" library: the courses of every site kept on this computer, in one list. */
  'library:all-page': channel<LibraryPage>()(
    z
      .object({
        ...pageOf,
        filter: z.enum(LIBRARY_FILTERS).default('all'),
        sort: z.enum(LIBRARY_SORTS).default('service'),
      })
      .strict(),
  ),
  'course:get': channel<CourseDetail>()(
    z.object({ siteId, courseId: z.string().min(1).max(200) }).strict(),
  ),
  /** The course was opened: its "new since last sync" badge is cleared. */
  'course:mark-seen': channel<void>()(
    z.object({ siteId, courseId: z.string().min(1).max(200) }).strict(),
  ),
  /** The Today home across every school kept here, from the saved copy (works offline). */
  'today:get': channel<TodayView>()(none),
  /**
   * Opens the school's own page for something the app shows, in the system browser: the core builds
   * the address from its saved copy (embedded-server/README.md, "Decisions (student pages)") on the
   * site's own origin only.
   */
  'site:open-page': channel<{ url: string }>()(
    z
      .object({
        siteId,
        page: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('course'), courseId: z.string().min(1).max(200) }).strict(),
          z
            .object({
              kind: z.literal('lecture'),
              courseId: z.string().min(1).max(200),
              lectureId: z.string().min(1).max(200),
            })
            .strict(),
          z.object({ kind: z.literal('order'), tradeNo: z.string().min(1).max(200) }).strict(),
          z
            .object({ kind: z.literal('consulting'), serviceId: z.string().min(1).max(200) })
            .strict(),
        ]),
      })
      .strict(),
  ),
  /** The whole billing (tests, scripts); the screen reads the summary and pages below. */
  'billing:get': channel<BillingView>()(bySite),
  'billing:summary': channel<BillingSummary>()(bySite),
  /**
   * Orders (payments grouped by tradeNo), newest first; filtered by state and by order number or
   * item title.
   */
  'billing:orders': channel<Page<OrderView>>()(
    z
      .object({
        siteId,
        ...pageOf,
        state: z.enum(ORDER_FILTERS).optional(),
        query: z.string().max(200).optional(),
      })
      .strict(),
  ),
  /** Spending per year and currency (paid minus refunded), newest year first. */
  'billing:spending': channel<YearSpending[]>()(bySite),
  /**
   * This week's work, the active-weeks streak and each course's pace; weeks are the student's
   * (Monday start, in `timeZone`).
   */
  'progress:summary': channel<ProgressSummary>()(
    z.object({ siteId, timeZone: z.string().min(1).max(64) }).strict(),
  ),
  /** One order by its public number (an order jumped to from the command palette or a notice). */
  'billing:order': channel<OrderView>()(
    z.object({ siteId, tradeNo: z.string().min(1).max(200) }).strict(),
  ),
  /** Unpaid ATM / convenience-store payments still payable now, soonest deadline first. */
  'billing:instructions': channel<Page<PaymentView>>()(z.object({ siteId, ...pageOf }).strict()),
  'entitlements:get': channel<EntitlementsView>()(bySite),
  'consulting:list': channel<ConsultingServiceView[]>()(bySite),
  'profile:get': channel<ProfileView>()(bySite),
  /**
   * A picture the site names (a cover, an avatar), fetched by the core: a data: URL, or null
   * (core/net/site-image.ts).
   */
  'media:image': channel<string | null>()(
    z.object({ siteId, url: z.string().min(1).max(4096) }).strict(),
  ),
  /**
   * Search every school's offline data (or the one named), of every kind (or those named): best
   * first, with context, at most 100 hits and 25 of one kind (100 when one kind is asked for).
   */
  'search:query': channel<SearchHit[]>()(
    z
      .object({
        siteId: siteId.optional(),
        query: z.string().max(200),
        kinds: z.array(z.enum(SEARCH_HIT_KINDS)).max(SEARCH_HIT_KINDS.length).optional(),
      })
      .strict(),
  ),

  /** The whole inbox (tests, scripts); the screen reads the summary and pages below. */
  'notifications:list': channel<NotificationsView>()(bySite),
  'notifications:summary': channel<NotificationsSummary>()(bySite),
  /** Newest first; `onlyUnread` filters at the source so every page is full. */
  'notifications:page': channel<Page<NotificationView>>()(
    z.object({ siteId, ...pageOf, onlyUnread: z.boolean().default(false) }).strict(),
  ),
  'notifications:mark-read': channel<void>()(
    z.object({ siteId, notificationId: z.string().min(1).max(200) }).strict(),
  ),
  /**
   * Opens a notice: where it leads (a course, an order, an event, a service, or nowhere), and marks
   * it read (queued offline).
   */
  'notifications:open': channel<NoticeTarget>()(
    z.object({ siteId, notificationId: z.string().min(1).max(200) }).strict(),
  ),
  'notifications:mark-all-read': channel<void>()(bySite),
  'notifications:update-subscription': channel<NotificationSubscriptionView>()(
    z
      .object({
        siteId,
        topic: z.enum(['announcements', 'course_updates', 'payments', 'events', 'marketing']),
        channel: z.enum(['email', 'in_app', 'push']),
        enabled: z.boolean(),
      })
      .strict(),
  ),

  'settings:get': channel<Settings>()(none),
  'settings:update': channel<Settings>()(
    z
      .object({
        autoSyncMinutes: z
          .number()
          .int()
          .min(0)
          .max(24 * 60)
          .optional(),
        language: z.enum(['system', 'en', 'zh-TW']).optional(),
        theme: z.enum(['system', 'light', 'dark']).optional(),
        allowWeakTokenStorage: z.boolean().optional(),
        notifyPaymentDue: z.boolean().optional(),
        notifyNewNotices: z.boolean().optional(),
        notifySignIn: z.boolean().optional(),
        notifyWeeklyDigest: z.boolean().optional(),
        remindAccessEnding: z.boolean().optional(),
        remindLectureUnlocked: z.boolean().optional(),
        remindEventStarting: z.boolean().optional(),
        trayEnabled: z.boolean().optional(),
        startAtLogin: z.boolean().optional(),
        lastSiteId: z.string().min(1).max(200).nullable().optional(),
      })
      .strict(),
  ),
  /**
   * Auto-update (electron/core/desktop/updates.ts); `off` with its reason where this host cannot
   * update itself.
   */
  'updates:get-state': channel<UpdateState>()(none),
  'updates:check': channel<UpdateState>()(none),
  /**
   * Restart to install the downloaded update, at once or as soon as no sync or sign-out is under
   * way.
   */
  'updates:restart': channel<UpdateState>()(none),
  'security:get-token-protection': channel<TokenProtection>()(none),

  /**
   * The sign-in doctor ("What went wrong?"): checks the site, this computer and the last sign-in
   * attempt. For a saved site, or for an address and client id that could not be added (discovery
   * failed at "Add").
   */
  'doctor:run': channel<DoctorReport>()(
    z.union([
      bySite,
      z
        .object({ baseUrl: z.string().min(1).max(2048), clientId: z.string().min(1).max(2048) })
        .strict(),
    ]),
  ),

  ...demoChannels,

  // Files the student asks for, written only where they choose (a save dialog, or a download in the
  // browser host).
  /** The purchase history as CSV (UTF-8 with BOM). */
  'export:orders-csv': channel<SaveOutcome>()(
    z.object({ siteId, language: fileLanguage }).strict(),
  ),
  /** One order's receipt: a PDF (Electron) or a print view (browser host). */
  'export:receipt': channel<SaveOutcome>()(
    z.object({ siteId, tradeNo: z.string().min(1).max(200), language: fileLanguage }).strict(),
  ),
  /**
   * Every receipt of one year's paid orders in one printable document (PDF in the app, a print view
   * in the browser host).
   */
  'export:year-receipts': channel<SaveOutcome>()(
    z.object({ siteId, year: z.string().regex(/^\d{4}$/), language: fileLanguage }).strict(),
  ),
  /**
   * The progress of every course of a school (and the recent weeks) as CSV, for an employer or a
   * parent.
   */
  'export:progress-csv': channel<SaveOutcome>()(
    z.object({ siteId, language: fileLanguage }).strict(),
  ),
  /** The same as a printable page (PDF in the app, a print view in the browser host). */
  'export:progress-report': channel<SaveOutcome>()(
    z.object({ siteId, language: fileLanguage }).strict(),
  ),
  /** An .ics reminder (RFC 5545) of an unpaid code's deadline. */
  'calendar:payment-deadline': channel<SaveOutcome>()(
    z.object({ siteId, paymentId: z.string().min(1).max(200), language: fileLanguage }).strict(),
  ),
  /** An .ics reminder of the day a course's access ends. */
  'calendar:course-access-end': channel<SaveOutcome>()(
    z.object({ siteId, courseId: z.string().min(1).max(200), language: fileLanguage }).strict(),
  ),
  /**
   * An .ics (RFC 5545) of an event the student registered for (Products & events > "Add to
   * calendar").
   */
  'calendar:event': channel<SaveOutcome>()(
    z
      .object({ siteId, registrationId: z.string().min(1).max(200), language: fileLanguage })
      .strict(),
  ),

  ...downloadChannels,

  /**
   * Reads a school's invite link (pasted, or the browser host's own /add-site address); never adds
   * or signs in.
   */
  'invite:parse': channel<InviteOutcome>()(z.object({ link: z.string().max(8192) }).strict()),
  /**
   * An invite link the app was opened with before the page could hear `invite:opened` (once; then
   * null).
   */
  'invite:take-pending': channel<InviteOutcome | null>()(none),

  ...noteChannels,
  ...changeChannels,
  ...archiveChannels,
  // The student's own AI assistant (assistant-contract.ts).
  ...assistantChannels,
  // The plan to finish in time, the reminders' rules and the calendar feed (plan-contract.ts).
  ...planChannels,
  ...reminderChannels,
  ...feedChannels,
} as const;

export type IpcContract = typeof ipcContract;
export type Channel = keyof IpcContract;
export type ChannelInput<C extends Channel> = z.input<IpcContract[C]['input']>;
export type ChannelOutput<C extends Channel> =
  IpcContract[C] extends ChannelSpec<z.ZodType, infer O> ? O : never;

export const CHANNELS = Object.keys(ipcContract) as Channel[];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ipcContract, value);
}

/** Events pushed from the core to the renderer. */
export interface IpcEvents {
  'sites:changed': SiteSummary[];
  'sign-in:progress': SignInProgress;
  'sync:progress': SyncProgress;
  /** A site's offline data changed (sync committed, outbox applied): views refetch. */
  'data:changed': { siteId: string };
  'network:changed': { online: boolean };
  /**
   * The settings changed (from the settings screen or the application menu, e.g. View > Toggle
   * theme).
   */
  'settings:changed': Settings;
  /**
   * The application menu (Electron) or an OS notification's click asks the page to show a screen,
   * focus search, sync or list the shortcuts (electron/common/shortcuts.ts; the browser host's page
   * matches key presses itself).
   */
  'app:command': AppCommand;
  'updates:changed': UpdateState;
  /**
   * An OS notification to show (electron/core/desktop/notifier.ts). The Electron host shows it
   * itself; the browser host's page shows it with the Web Notifications API.
   */
  'desktop:notification': DesktopNotification;
  /** Browser host only: the core asks the page to open the system browser, i.e. a new tab. */
  'host:open-url': { url: string };
  /**
   * The app was opened with a school's invite link (Electron: the learning-desktop: scheme): show
   * it to confirm.
   */
  'invite:opened': InviteOutcome;
  /** A product's saved copy or transfer changed (progress at most four times a second). */
  'downloads:changed': ProductOfflineView;
  /** A school's archive under way (at most four times a second, and its last file). */
  'archive:progress': ArchiveProgress;
}
export type EventName = keyof IpcEvents;
export { API_GLOBAL, BROWSER_HOST_PATHS, EVENT_NAMES, PAGE_LIMIT_MAX } from './ipc-names';

/**
 * EVENT_NAMES (ipc-names.ts, kept free of this file's schemas for the renderer) lists exactly the
 * events above.
 */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const eventNamesMatch: SameKeys<EventName, (typeof EVENT_NAMES)[number]> = true;
void eventNamesMatch;

/** The core's side: one handler per channel, receiving validated input. */
export type IpcHandlers = {
  [C in Channel]: (input: z.output<IpcContract[C]['input']>) => Promise<Result<ChannelOutput<C>>>;
};

/**
 * The same handlers before their answers are wrapped in Results (withResults): each returns its
 * value or throws.
 */
export type CoreHandlers = {
  [C in Channel]: (input: z.output<IpcContract[C]['input']>) => Promise<ChannelOutput<C>>;
};

/** The renderer's side: the one named object the preload (or the browser host bridge) exposes. */
export interface LearningDesktopApi {
  invoke<C extends Channel>(
    channel: C,
    ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
  ): Promise<Result<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
}
