/**
 * The pages connected to the browser host (their event streams), and the one the student used last:
 * events go to every page, a URL to open goes to that one. The host's only holder of the streams.
 */
import type { ServerResponse } from 'node:http';
import type { EventName, IpcEvents } from '../common/ipc-contract';
import { externalUrl } from '../common/external-url';
import { CoreError } from '../core/errors';
import { STOPPED_EVENT } from './bridge';

export function sendEvent<E extends EventName>(
  res: ServerResponse,
  event: E,
  payload: IpcEvents[E],
): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
}

export class PageClients {
  /** Connected pages (their event streams) by the page id the bridge made up at load. */
  readonly #clients = new Map<ServerResponse, string>();
  /** The page the student used last (its latest invoke): the one that started a sign-in. */
  #activePage: string | null = null;

  /** A page's event stream is open ('' for a page without a valid id). */
  connect(res: ServerResponse, page: string): void {
    this.#clients.set(res, page);
  }

  disconnect(res: ServerResponse): void {
    this.#clients.delete(res);
  }

  /** The page the student is using now (it just called the core). */
  setActive(page: string): void {
    this.#activePage = page;
  }

  broadcast<E extends EventName>(event: E, payload: IpcEvents[E]): void {
    for (const res of this.#clients.keys()) sendEvent(res, event, payload);
  }

  /** "Opening the system browser" becomes opening a new tab in the page that drives the app. */
  async openExternal(url: string): Promise<void> {
    // The same rule as everywhere a site's address leaves the app (common/external-url.ts).
    const allowed = externalUrl(url);
    if (allowed === null)
      throw new CoreError(
        'invalid-input',
        'Only https addresses (http on this computer), without a user name or password, can be opened.',
      );
    const parsed = new URL(allowed);
    // The sign-in page opens as a tab of the page that drives the app; with none connected it
    // cannot be shown.
    if (this.#clients.size === 0)
      throw new CoreError(
        'sign-in-failed',
        'The sign-in page could not be opened: open the app’s page (the link printed at start) and try again.',
      );
    // Only one tab opens: in the page the student is using (several pages of the app may be open),
    // else the newest.
    const pages = [...this.#clients];
    const [target] =
      pages.find(([, page]) => page === this.#activePage) ?? pages[pages.length - 1]!;
    sendEvent(target, 'host:open-url', { url: parsed.toString() });
  }

  /**
   * Open pages are told the app stopped (bridge.ts), instead of waiting for whoever binds
   * the port next.
   */
  stopAll(): void {
    for (const res of this.#clients.keys()) res.end(`event: ${STOPPED_EVENT}\ndata: {}\n\n`);
    this.#clients.clear();
  }
}
