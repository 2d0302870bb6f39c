/**
 * When the browser host's core opens: once the first page is out (or FIRST_PAGE_WAIT_MS after
 * listening), or at the first request that needs it. Until then the requests that need it wait; the
 * page's files do not.
 */
import type { AppCore } from '../core/app-core';
import type { FileDelivery } from '../core/export/service';
import type * as IpcDispatch from '../core/ipc-dispatch';

export type IpcDispatchModule = typeof IpcDispatch;

/** Builds the core with the host's ways to open a URL and hand the student a file. */
export type CreateCore = (deps: {
  openExternal: (url: string) => Promise<void>;
  deliverFile: FileDelivery;
}) => Promise<AppCore>;

export interface CoreOpenerDeps {
  readonly createCore: CreateCore;
  readonly openExternal: (url: string) => Promise<void>;
  readonly deliverFile: FileDelivery;
}

export class CoreOpener {
  readonly #deps: CoreOpenerDeps;
  /** Set once open; until then `core()` waits for `#opened`. */
  #core: AppCore | null = null;
  #opened: Promise<AppCore> | null = null;
  // The contract's checks (zod) load with the core, once the host listens: the page's files
  // are served meanwhile.
  #dispatching: Promise<IpcDispatchModule> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #markStarted!: () => void;
  readonly #started = new Promise<void>((resolve) => (this.#markStarted = resolve));

  constructor(deps: CoreOpenerDeps) {
    this.#deps = deps;
  }

  /** Starts opening the core (once). */
  start(): void {
    if (this.#opened) return;
    clearTimeout(this.#timer);
    this.#dispatching = import('../core/ipc-dispatch');
    this.#dispatching.catch(() => undefined);
    this.#opened = this.#deps.createCore({
      openExternal: this.#deps.openExternal,
      deliverFile: this.#deps.deliverFile,
    });
    // Not left unhandled while the caller is told the address: the rejection is
    // the caller's (`open`).
    this.#opened.catch(() => undefined);
    this.#markStarted();
  }

  /** Starts it after `ms` unless something starts it sooner. */
  startAfter(ms: number): void {
    this.#timer = setTimeout(() => this.start(), ms);
  }

  cancelTimer(): void {
    clearTimeout(this.#timer);
  }

  /** Resolves once the core is open (started by now, or by the first page or the timer later). */
  async open(): Promise<AppCore> {
    await this.#started;
    this.#core = await this.#opened!;
    return this.#core;
  }

  /** The core, started now if it was not. */
  core(): Promise<AppCore> {
    this.start();
    return this.#core ? Promise.resolve(this.#core) : this.#opened!;
  }

  dispatcher(): Promise<IpcDispatchModule> {
    this.start();
    return this.#dispatching!;
  }
}
