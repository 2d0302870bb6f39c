/**
 * Auto-update: the state machine (idle → checking → available → downloading → ready, or error) and
 * its policy (check at start and every few hours, download in the background, restart only when no
 * sync or sign-out is under way). The Electron host adapts electron-updater to `UpdaterPort`
 * (electron/main/updater.ts); the browser host has no updater, and its state says so. Tested in
 * plain Node with an in-memory port.
 */
import type { UpdateState } from '../../common/view-models';

/** Why updates are off. Shown in Settings as it is: the user knows whether to expect them. */
export type UpdatesOffReason = Extract<UpdateState, { status: 'off' }>['reason'];

/** What the controller needs from an updater (electron-updater's AppUpdater, narrowed). */
export interface UpdaterPort {
  /** Resolves when the check is done; the outcome arrives as an event. */
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  /** Quits the app and installs the downloaded update. */
  quitAndInstall(): void;
}

/** Events an updater reports (electron-updater's event names, narrowed to what the states need). */
export type UpdaterEvent =
  | { readonly type: 'checking-for-update' }
  | { readonly type: 'update-available'; readonly version: string }
  | { readonly type: 'update-not-available' }
  | { readonly type: 'download-progress'; readonly percent: number }
  | { readonly type: 'update-downloaded'; readonly version: string }
  /** kind 'unreachable': no network or no server (a quiet note, see nextUpdateState); otherwise a failure. */
  | { readonly type: 'error'; readonly message: string; readonly kind?: UpdateErrorKind };

/** How a failed check or download reads: the update server not reached, or anything else. */
export type UpdateErrorKind = 'unreachable' | 'failed';

/**
 * The transition function: the state after an event, or the same state when the event does not
 * apply there (an electron-updater event arriving late, twice, or out of order never moves the
 * machine backwards).
 */
export function nextUpdateState(
  state: UpdateState,
  event: UpdaterEvent,
  now: string,
  lastCheckedAt: string | null = null,
): UpdateState {
  if (state.status === 'off') return state;
  switch (event.type) {
    case 'checking-for-update':
      // A downloaded update stays ready: a later check must not hide the restart button.
      return state.status === 'ready' ||
        state.status === 'downloading' ||
        state.status === 'checking'
        ? state
        : { status: 'checking' };
    case 'update-available':
      return state.status === 'checking' || state.status === 'idle' || state.status === 'error'
        ? { status: 'available', version: event.version }
        : state;
    case 'update-not-available':
      return state.status === 'checking' ? { status: 'idle', lastCheckedAt: now } : state;
    case 'download-progress': {
      if (state.status !== 'available' && state.status !== 'downloading') return state;
      const percent = Math.max(
        0,
        Math.min(100, Math.round(Number.isFinite(event.percent) ? event.percent : 0)),
      );
      // Progress only grows (electron-updater may repeat or reorder its last events).
      const previous = state.status === 'downloading' ? state.percent : 0;
      return {
        status: 'downloading',
        version: state.version,
        percent: Math.max(previous, percent),
      };
    }
    case 'update-downloaded':
      return { status: 'ready', version: event.version, restartQueued: false };
    case 'error':
      // A failed check or download leaves a downloaded update usable.
      if (state.status === 'ready') return state;
      // A check that reached no server (offline, on a train, the server down) is no failure of the
      // app's: it stays as up to date as the last check that got through found it, says why
      // quietly, and checks again later.
      if (
        event.kind === 'unreachable' &&
        (state.status === 'checking' || state.status === 'idle' || state.status === 'error')
      ) {
        return { status: 'idle', lastCheckedAt, unreachable: { at: now, reason: event.message } };
      }
      return { status: 'error', message: event.message, lastCheckedAt: now };
    default:
      return assertNeverEvent(event);
  }
}

function assertNeverEvent(value: never): never {
  throw new Error(`unknown updater event ${JSON.stringify(value)}`);
}

/**
 * The feed URL from configuration, if it is one the updater may use: https, or loopback http for a
 * local feed.
 */
export function parseFeedUrl(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    const loopback =
      url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) {
      // Credentials in a feed URL would end up in logs and error messages.
      if (url.username || url.password) return null;
      return url.toString();
    }
    return null;
  } catch {
    return null;
  }
}

const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** The first check waits a little after start, so it does not compete with the first sync. */
const UPDATE_FIRST_CHECK_DELAY_MS = 30_000;

export interface UpdateControllerDeps {
  /** null: updates are off, for the reason given. */
  readonly updater: UpdaterPort | null;
  readonly offReason?: UpdatesOffReason;
  /** Subscribes the controller to the updater's events; returns the unsubscribe. */
  readonly subscribe?: (listener: (event: UpdaterEvent) => void) => () => void;
  /** A sync or a sign-out is under way: no restart now. */
  readonly isBusy: () => boolean;
  /** Calls back when the last sync or sign-out has ended; returns the unsubscribe. */
  readonly onIdle: (listener: () => void) => () => void;
  readonly onChange: (state: UpdateState) => void;
  readonly now?: () => number;
  readonly intervalMs?: number;
  readonly firstCheckDelayMs?: number;
  readonly log?: (line: string) => void;
}

export type UpdateControllerOptions = UpdateControllerDeps;

export interface UpdateController {
  state(): UpdateState;
  /** Checks now (the menu's "Check for Updates…", Settings' button). */
  check(): Promise<UpdateState>;
  /**
   * Quits and installs the downloaded update; when a sync or sign-out is under way, waits for it to
   * end first (state.restartQueued tells the page).
   */
  restart(): UpdateState;
  close(): void;
}

const errorEvent = (error: unknown): UpdaterEvent => ({
  type: 'error',
  kind: updateErrorKind(error),
  message: describeUpdateError(error),
});

/**
 * Updates as a part: its state (nextUpdateState), the periodic check, the download once an update
 * is found, and the restart, which waits for the syncs and sign-outs under way.
 */
export class DesktopUpdates implements UpdateController {
  readonly #deps: UpdateControllerDeps;
  readonly #updater: UpdaterPort | null;
  readonly #log: (line: string) => void;
  #state: UpdateState;
  #closed = false;
  /**
   * The last check that reached the feed: what "up to date as of" means when a later one could not.
   */
  #lastReached: string | null = null;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #unsubscribers: (() => void)[] = [];

  constructor(deps: UpdateControllerDeps) {
    this.#deps = deps;
    this.#updater = deps.updater;
    this.#log = deps.log ?? (() => {});
    this.#state = deps.updater
      ? { status: 'idle', lastCheckedAt: null }
      : { status: 'off', reason: deps.offReason ?? 'host' };
    if (deps.updater) this.#start(deps.updater);
  }

  #start(updater: UpdaterPort): void {
    const deps = this.#deps;
    if (deps.subscribe) {
      this.#unsubscribers.push(
        deps.subscribe((event) => {
          const before = this.#state;
          this.#step(event);
          // Download in the background as soon as an update is found.
          if (before.status !== 'available' && this.#state.status === 'available') {
            void updater.downloadUpdate().catch((error: unknown) => this.#step(errorEvent(error)));
          }
        }),
      );
    }
    this.#unsubscribers.push(
      deps.onIdle(() => {
        const state = this.#state;
        if (state.status === 'ready' && state.restartQueued && !deps.isBusy()) this.#install();
      }),
    );
    const first = setTimeout(
      () => void this.check(),
      deps.firstCheckDelayMs ?? UPDATE_FIRST_CHECK_DELAY_MS,
    );
    first.unref();
    const every = setInterval(() => void this.check(), deps.intervalMs ?? UPDATE_CHECK_INTERVAL_MS);
    every.unref();
    this.#timers.push(first, every);
  }

  state(): UpdateState {
    return this.#state;
  }

  async check(): Promise<UpdateState> {
    const updater = this.#updater;
    const status = this.#state.status;
    if (!updater || this.#closed || status === 'off') return this.#state;
    // Already busy with an update, or one is waiting for a restart: nothing to check.
    if (status === 'checking' || status === 'downloading' || status === 'ready') return this.#state;
    this.#set({ status: 'checking' });
    try {
      await updater.checkForUpdates();
      // electron-updater answers a check with an event before it resolves; resolving without one
      // means this installation cannot update itself (an updater that finds no way to replace this
      // copy): it says so instead of checking for ever.
      if ((this.#state as UpdateState).status === 'checking') {
        this.#log('updates: this installation cannot update itself');
        this.#set({ status: 'off', reason: 'unsupported' });
      }
    } catch (error) {
      this.#step(errorEvent(error));
    }
    return this.#state;
  }

  restart(): UpdateState {
    const state = this.#state;
    if (state.status !== 'ready') return state;
    if (this.#deps.isBusy()) {
      this.#set({ ...state, restartQueued: true });
      return this.#state;
    }
    this.#install();
    return this.#state;
  }

  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    for (const u of this.#unsubscribers) u();
  }

  #now(): string {
    return new Date((this.#deps.now ?? Date.now)()).toISOString();
  }

  #set(next: UpdateState): void {
    if (next === this.#state) return;
    this.#state = next;
    if (next.status === 'idle' && !next.unreachable) this.#lastReached = next.lastCheckedAt;
    this.#deps.onChange(next);
  }

  #step(event: UpdaterEvent): void {
    this.#set(nextUpdateState(this.#state, event, this.#now(), this.#lastReached));
  }

  #install(): void {
    if (!this.#updater || this.#closed) return;
    this.#log('updates: restarting to install the downloaded update');
    this.#updater.quitAndInstall();
  }
}

export function createUpdateController(deps: UpdateControllerDeps): UpdateController {
  return new DesktopUpdates(deps);
}

/**
 * Node's codes, and Chromium's net errors (Electron's net module reports `net::ERR_...` in the
 * message), for no way through.
 */
const UNREACHABLE_CODES =
  /^(?:ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|EAI_AGAIN)$/;
const UNREACHABLE_NET_ERRORS =
  /net::ERR_(?:INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|CONNECTION_(?:REFUSED|RESET|CLOSED|TIMED_OUT|FAILED)|ADDRESS_UNREACHABLE|NETWORK_(?:CHANGED|ACCESS_DENIED)|TIMED_OUT|PROXY_CONNECTION_FAILED)\b/;

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : '';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether an updater's error means the update server was not reached (see nextUpdateState). */
export function updateErrorKind(error: unknown): UpdateErrorKind {
  return UNREACHABLE_CODES.test(codeOf(error)) || UNREACHABLE_NET_ERRORS.test(messageOf(error))
    ? 'unreachable'
    : 'failed';
}

/**
 * An updater's error in plain words, without its details (a feed URL with a query, a path on disk):
 * the controller's own calls and electron-updater's `error` events (electron/main/updater.ts) both
 * go through it.
 */
export function describeUpdateError(error: unknown): string {
  const code = codeOf(error);
  if (updateErrorKind(error) === 'unreachable') return 'The update server could not be reached.';
  // electron-updater compares the download's SHA-512 with the one its release published
  // (latest*.yml) and deletes a file that differs; on Windows and macOS it also checks the
  // installer's signature.
  if (
    code === 'ERR_UPDATER_INVALID_SIGNATURE' ||
    code === 'ERR_CHECKSUM_MISMATCH' ||
    /sha512 checksum mismatch/i.test(messageOf(error))
  )
    return 'The downloaded update did not match what its release published, so it was deleted.';
  return 'The update could not be checked or downloaded.';
}
