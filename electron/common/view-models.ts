/**
 * Serialisable view models: what the core hands the renderer over the IPC contract. Plain data only
 * (strings, numbers, booleans, arrays, objects, null). Dates are ISO 8601 strings; amounts are numbers in the
 * currency's major unit (TWD has no minor unit) with the ISO 4217 code beside them.
 */

export type SiteId = string;
export type IsoDateTime = string;

// ---------------------------------------------------------------- app and sites

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly dataDir: string;
  readonly host: 'electron' | 'browser';
  readonly platform: string;
  /** True when the embedded demo server can be started by this host. */
  readonly demoAvailable: boolean;
}

export type SiteStatus =
  /** Added, never signed in (or signed out and kept). */
  | 'signed-out'
  | 'signing-in'
  | 'ready'
  /** The refresh token was refused or a 401 survived one refresh: offline data stays readable. */
  | 'sign-in-needed'
  /** Signed out locally; revocation with the refresh token is queued until the site is reachable. */
  | 'sign-out-pending'
  /** A queued sign-out was lost with a restart: tokens were kept in memory only (the user's choice), so the
   * revocation could not be kept either. The session may still be live at the site; the user is told so. */
  | 'sign-out-unconfirmed';

export interface SiteProfile {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly avatarUrl: string | null;
}

export interface SiteSummary {
  readonly id: SiteId;
  /** The school's name once known, else the host name. */
  readonly label: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly isDemo: boolean;
  readonly status: SiteStatus;
  readonly schoolId: string | null;
  readonly subdomain: string | null;
  readonly profile: SiteProfile | null;
  /** Scopes granted by the last sign-in. */
  readonly grantedScopes: readonly string[];
  /** Scopes the site refused to serve during the last sync or call (e.g. account:write). */
  readonly missingScopes: readonly string[];
  readonly lastSyncedAt: IsoDateTime | null;
  /**
   * With status 'sign-in-needed': the saved sign-in exists but cannot be read (its key was lost or the file is
   * damaged), so the screen says that rather than "expired".
   */
  readonly signInUnreadable?: boolean;
}

export interface AddSiteInput {
  readonly baseUrl: string;
  readonly clientId: string;
  /** Only for a confidential application; stored in the vault, never shown again. */
  readonly clientSecret?: string;
}

export interface SignOutInput {
  readonly siteId: SiteId;
  /** Also delete the site's offline data. */
  readonly removeData: boolean;
}

export interface SignOutResult {
  /** The refresh token was revoked at the site. */
  readonly revoked: boolean;
  /** The revocation is queued and will be retried when the site is reachable. */
  readonly pending: boolean;
  /**
   * Present (true) when the site offers no revocation endpoint (RFC 7009 is optional): the sign-in was ended on this
   * computer only, and stays valid at the site until its tokens expire there.
   */
  readonly localOnly?: true;
}

export type SignInPhase = 'discovering' | 'waiting-for-browser' | 'exchanging-code' | 'verifying' | 'done' | 'failed';

export interface SignInProgress {
  readonly siteId: SiteId;
  readonly phase: SignInPhase;
  /** The authorization URL, while waiting for the browser (so the UI can offer to open it again). */
  readonly authorizationUrl?: string;
}

// ---------------------------------------------------------------- sync

export type SyncPhase =
  | 'idle'
  | 'profile'
  | 'courses'
  | 'digital-products'
  | 'consulting'
  | 'events'
  | 'payments'
  | 'notifications'
  | 'committing'
  | 'outbox';

export interface SyncProgress {
  readonly siteId: SiteId;
  readonly running: boolean;
  readonly phase: SyncPhase;
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  /** 0..1 when the total is known, else null. */
  readonly fraction: number | null;
}

export interface SyncStatus {
  readonly siteId: SiteId;
  readonly running: boolean;
  readonly lastSyncedAt: IsoDateTime | null;
  readonly lastAttemptAt: IsoDateTime | null;
  /** The last run's failure, if it failed. */
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /** Scopes the server refused; the rest was synced. */
  readonly missingScopes: readonly string[];
  /** Outbox entries not yet accepted by the site. */
  readonly pendingChanges: number;
  /** Outbox entries the site refused (shown to the user). */
  readonly failedChanges: readonly { readonly id: string; readonly description: string; readonly error: string }[];
  readonly online: boolean;
}

export interface SyncRunSummary {
  readonly siteId: SiteId;
  readonly startedAt: IsoDateTime;
  readonly finishedAt: IsoDateTime;
  readonly outcome: 'completed' | 'partial' | 'failed' | 'cancelled';
  readonly counts: Readonly<Record<string, number>>;
  readonly missingScopes: readonly string[];
  readonly error: { readonly code: string; readonly message: string } | null;
}

// ---------------------------------------------------------------- pages

/**
 * One page of a long list (issue 6): the screens ask for what they show and load the next page as the student
 * scrolls, so no call builds a list of thousands of rows. Offsets count items of the list as filtered.
 */
export interface Page<T> {
  readonly items: readonly T[];
  /** Items in the whole list (filter applied). */
  readonly total: number;
  /** Where the next page starts; null on the last page. */
  readonly nextOffset: number | null;
}

// ---------------------------------------------------------------- courses

export type LectureState = 'unread' | 'read' | 'completed';

export interface ContinueWatching {
  readonly lectureId: string;
  readonly lectureTitle: string;
  readonly sectionTitle: string;
  readonly positionSeconds: number;
  readonly durationSeconds: number;
}

export interface LibraryCourse {
  readonly courseId: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string | null;
  readonly coverImageUrl: string | null;
  readonly instructorName: string | null;
  readonly enrolledAt: IsoDateTime;
  readonly expireDate: IsoDateTime | null;
  readonly hasLifetimeAccess: boolean;
  /** Access has ended (expireDate in the past, no lifetime access). */
  readonly isExpired: boolean;
  /** Access ends within 14 days. */
  readonly expiresSoon: boolean;
  readonly totalLectures: number;
  readonly completedLectures: number;
  readonly readLectures: number;
  /** 0..100. */
  readonly percent: number;
  readonly completedAt: IsoDateTime | null;
  readonly continueWatching: ContinueWatching | null;
  /** The site the course comes from (the "All schools" library mixes sites). */
  readonly siteId: string;
  /** Lectures not completed yet, and their length in seconds ("57 min left"). */
  readonly lecturesLeft: number;
  readonly secondsLeft: number;
}

/**
 * Library filters, applied by the core at read time (expiry is judged against the clock of the call). In progress:
 * started (a lecture read or completed, progress, or a last watched lecture) and not finished; not started: none of
 * that. Both leave out courses whose access has ended.
 */
export const LIBRARY_FILTERS = ['all', 'in-progress', 'not-started', 'completed', 'expiring-soon', 'expired'] as const;
export type LibraryFilter = (typeof LIBRARY_FILTERS)[number];

/** Library orders: the school's own, recent activity (last watched, else enrolled), access ending soonest, progress, title. */
export const LIBRARY_SORTS = ['service', 'recent', 'ending', 'progress', 'title'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

export interface LibraryPage extends Page<LibraryCourse> {
  /** Courses of the site, whatever the filter (the screen tells "no courses" from "none match"). */
  readonly courseCount: number;
}

export interface LectureView {
  readonly lectureId: string;
  readonly title: string;
  readonly position: number;
  readonly state: LectureState;
  readonly isLocked: boolean;
  readonly unlockAt: IsoDateTime | null;
  readonly durationSeconds: number;
  /** True for the last watched lecture. */
  readonly isLastWatched: boolean;
}

export interface SectionView {
  readonly sectionId: string;
  readonly title: string;
  readonly position: number;
  readonly lectures: readonly LectureView[];
}

export interface CourseDetail extends LibraryCourse {
  readonly sections: readonly SectionView[];
  readonly lastWatched: { readonly lectureId: string; readonly positionSeconds: number; readonly watchedAt: IsoDateTime | null } | null;
}

// ---------------------------------------------------------------- billing

export type PaymentState = 'not_paid' | 'paid' | 'expired' | 'failed' | 'manual_enrolled' | 'refunded';
export type PaymentType = 'credit_card' | 'atm' | 'cvs' | 'line_pay' | 'apple_pay' | 'manual' | 'free';
export type RefundingState = 'none' | 'requested' | 'processing' | 'partially_refunded' | 'refunded' | 'rejected';
export type LineItemType = 'CurriculumPlan' | 'MembershipPlan' | 'Ticket' | 'DigitalProduct' | 'OrderBump' | 'Meeting';

export interface PaymentInstructions {
  readonly bankCode: string | null;
  readonly bankName: string | null;
  readonly codeNo: string;
  readonly expiredAt: IsoDateTime | null;
  /** expiredAt is in the past. */
  readonly isExpired: boolean;
}

export interface PaymentView {
  readonly paymentId: string;
  readonly tradeNo: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentType: PaymentType;
  readonly paymentState: PaymentState;
  readonly createdAt: IsoDateTime;
  readonly paidAt: IsoDateTime | null;
  readonly adjustments: readonly { readonly kind: 'coupon' | 'promotion'; readonly code: string | null; readonly title: string; readonly amount: number }[];
  readonly invoice: {
    readonly number: string;
    readonly kind: 'personal' | 'company' | 'donation';
    readonly title: string | null;
    readonly taxId: string | null;
    readonly issuedAt: IsoDateTime;
    readonly voidedAt: IsoDateTime | null;
  } | null;
  readonly lineItems: readonly {
    readonly id: string;
    readonly itemType: LineItemType;
    readonly title: string;
    readonly quantity: number;
    readonly originalAmount: number;
    readonly discountAmount: number;
    readonly finalAmount: number;
  }[];
  readonly installment: { readonly periods: number; readonly amountPerPeriod: number; readonly bankName: string | null } | null;
  readonly refund: {
    readonly state: RefundingState;
    readonly refundedAmount: number;
    readonly refundedAt: IsoDateTime | null;
    readonly refundRequestedAt: IsoDateTime | null;
  };
  /** ATM / convenience-store instructions on unpaid or expired rows. */
  readonly instructions: PaymentInstructions | null;
}

/** Payments grouped by tradeNo (service-spec: one node is one payment, not one order). */
export interface OrderView {
  readonly tradeNo: string;
  readonly currency: string;
  /** Earliest createdAt of its payments. */
  readonly createdAt: IsoDateTime;
  /** Sum of the paid payments. */
  readonly paidAmount: number;
  readonly refundedAmount: number;
  /** Sum of all payment amounts. */
  readonly totalAmount: number;
  /** Derived: 'refunded' | 'partially_refunded' | 'paid' | 'awaiting_payment' | 'expired' | 'failed' | 'mixed'. */
  readonly summaryState: 'paid' | 'partially_refunded' | 'refunded' | 'awaiting_payment' | 'expired' | 'failed' | 'manual_enrolled' | 'mixed';
  /** Line items of the order (deduplicated across its payments). */
  readonly title: string;
  readonly payments: readonly PaymentView[];
}

/** Money per currency: what reached the school (paid, and refunded later) and what went back. */
export interface CurrencyTotal {
  readonly currency: string;
  readonly paid: number;
  readonly refunded: number;
}

/** The whole billing at once (tests, scripts). The screen reads BillingSummary and pages (billing:orders). */
export interface BillingView {
  /** Newest first. */
  readonly orders: readonly OrderView[];
  /** Unpaid ATM / convenience-store rows whose instructions have not expired, soonest expiry first. */
  readonly pendingInstructions: readonly PaymentView[];
  readonly totals: readonly CurrencyTotal[];
}

/** The head of the billing screen: counts, totals and the soonest payable codes; the orders come in pages. */
export interface BillingSummary {
  readonly orderCount: number;
  readonly paymentCount: number;
  /** Unpaid ATM / convenience-store rows still payable now. */
  readonly pendingCount: number;
  /** The first of them, soonest deadline first (the rest: billing:instructions). */
  readonly pendingInstructions: readonly PaymentView[];
  /** Per currency, by currency code. */
  readonly totals: readonly CurrencyTotal[];
}

// ---------------------------------------------------------------- entitlements, consulting, events

export interface DigitalProductView {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly format: string;
  readonly deliveredAt: IsoDateTime;
  readonly expireDate: IsoDateTime | null;
  /** Null also when the site sent an address the app does not open (external-url.ts); then `urlRefused`. */
  readonly downloadUrl: string | null;
  readonly urlRefused?: true;
}

export interface EventRegistrationView {
  readonly id: string;
  readonly eventId: string;
  readonly title: string;
  readonly startsAt: IsoDateTime;
  readonly endsAt: IsoDateTime;
  readonly location: string | null;
  readonly isOnline: boolean;
  /** Null also when the site sent an address the app does not open (external-url.ts); then `urlRefused`. */
  readonly joinUrl: string | null;
  readonly urlRefused?: true;
  readonly ticketName: string;
  readonly registeredAt: IsoDateTime;
  readonly isPast: boolean;
}

export interface ConsultingServiceView {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly durationMinutes: number;
  readonly consultantName: string;
  readonly courseId: string;
  readonly courseTitle: string | null;
  readonly slots: readonly { readonly weekday: number; readonly startTime: string; readonly endTime: string; readonly timeZone: string }[];
  /** Times already booked on the service by anyone; never the viewer's own bookings. */
  readonly bookedTimes: readonly { readonly startsAt: IsoDateTime; readonly endsAt: IsoDateTime }[];
}

export interface EntitlementsView {
  readonly digitalProducts: readonly DigitalProductView[];
  readonly eventRegistrations: readonly EventRegistrationView[];
}

// ---------------------------------------------------------------- notifications

export type NotificationKind = 'announcement' | 'course_update' | 'payment' | 'event' | 'consulting';
export type NotificationTopic = 'announcements' | 'course_updates' | 'payments' | 'events' | 'marketing';
export type NotificationChannel = 'email' | 'in_app' | 'push';

export interface NotificationView {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly title: string;
  readonly body: string;
  readonly url: string | null;
  readonly createdAt: IsoDateTime;
  readonly readAt: IsoDateTime | null;
  /** A local change (mark read) not yet accepted by the site. */
  readonly pendingSync: boolean;
}

export interface NotificationSubscriptionView {
  readonly topic: NotificationTopic;
  readonly channel: NotificationChannel;
  readonly enabled: boolean;
  readonly pendingSync: boolean;
}

/** The whole inbox at once (tests, scripts). The screen reads NotificationsSummary and pages (notifications:page). */
export interface NotificationsView {
  readonly items: readonly NotificationView[];
  readonly unreadCount: number;
  readonly subscriptions: readonly NotificationSubscriptionView[];
}

export interface NotificationsSummary {
  /** Every notification, read or not. */
  readonly total: number;
  readonly unreadCount: number;
  readonly subscriptions: readonly NotificationSubscriptionView[];
}

// ---------------------------------------------------------------- profile, search, settings

export interface ProfileView {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly avatarUrl: string | null;
  readonly schools: readonly { readonly id: string; readonly name: string; readonly subdomain: string; readonly roles: readonly string[] }[];
}

export type SearchHitKind = 'course' | 'section' | 'lecture' | 'notification';

export interface SearchHit {
  readonly kind: SearchHitKind;
  readonly id: string;
  /** For sections and lectures: the course they belong to. */
  readonly courseId: string | null;
  readonly title: string;
  /** Text around the match, with the match wrapped in [[ and ]]. */
  readonly snippet: string;
}

export type LanguagePreference = 'system' | 'en' | 'zh-TW';
export type ThemePreference = 'system' | 'light' | 'dark';

export interface Settings {
  /** 0 turns automatic sync off. */
  readonly autoSyncMinutes: number;
  readonly language: LanguagePreference;
  readonly theme: ThemePreference;
  /** Linux without a keyring: the user allowed tokens on disk under safeStorage's basic_text backend. */
  readonly allowWeakTokenStorage: boolean;
  /** OS notifications (electron/core/desktop/notifier.ts), each kind on or off. */
  readonly notifyPaymentDue: boolean;
  readonly notifyNewNotices: boolean;
  readonly notifySignIn: boolean;
  /** Electron: an icon in the tray / menu bar; closing the last window then keeps the app running. */
  readonly trayEnabled: boolean;
  /** Electron: start with the session, minimized. */
  readonly startAtLogin: boolean;
}

export interface TokenProtection {
  /** e.g. 'keychain', 'dpapi', 'gnome_libsecret', 'kwallet', 'basic_text', 'node-aes-256-gcm-keyfile', 'memory-only'. */
  readonly backend: string;
  /** Tokens survive a restart. */
  readonly persistent: boolean;
  /** The backend is weak (e.g. basic_text): the UI explains and offers the opt-in. */
  readonly weak: boolean;
  readonly description: string;
}

/**
 * Auto-update (electron/core/desktop/updates.ts). `off`: this host cannot update itself (the browser host, a checkout) or no
 * update feed is configured; Settings says which.
 */
export type UpdateState =
  | { readonly status: 'off'; readonly reason: 'host' | 'development' | 'no-feed' | 'unsupported' }
  | { readonly status: 'idle'; readonly lastCheckedAt: IsoDateTime | null }
  | { readonly status: 'checking' }
  | { readonly status: 'available'; readonly version: string }
  | { readonly status: 'downloading'; readonly version: string; readonly percent: number }
  /** Downloaded: "Restart to update". restartQueued: asked for while a sync or sign-out runs; it follows. */
  | { readonly status: 'ready'; readonly version: string; readonly restartQueued: boolean }
  | { readonly status: 'error'; readonly message: string; readonly lastCheckedAt: IsoDateTime | null };
