import { BROWSER_HOST_PATHS, type EventName } from '../common/ipc-contract';

/** Names the page an invoke comes from (the bridge's random id for this page load). */
export const PAGE_HEADER = 'x-ld-page';

/**
 * The browser host's stand-in for the preload: a small script that defines the same `window.learningDesktop`
 * object, speaking the contract over loopback HTTP (invoke) and server-sent events (events). Served as a file
 * so the page's CSP can forbid inline script.
 */
export function bridgeScript(eventNames: readonly EventName[]): string {
  return `(() => {
  'use strict';
  const listeners = new Map();
  // This page load's id: the host opens a sign-in tab from the page that asked for it, not from every open page.
  const pageId = crypto.randomUUID();
  const emit = (name, payload) => { for (const l of listeners.get(name) || []) { try { l(payload); } catch (e) { console.error(e); } } };
  const source = new EventSource(${JSON.stringify(BROWSER_HOST_PATHS.events)} + '?page=' + pageId);
  for (const name of ${JSON.stringify(eventNames)}) {
    source.addEventListener(name, (event) => emit(name, JSON.parse(event.data)));
  }
  const invoke = async (channel, input) => {
    try {
      const response = await fetch(${JSON.stringify(BROWSER_HOST_PATHS.invoke)} + encodeURIComponent(channel), {
        method: 'POST', headers: { 'content-type': 'application/json', ${JSON.stringify(PAGE_HEADER)}: pageId }, credentials: 'same-origin',
        body: JSON.stringify(input === undefined ? {} : { input }),
      });
      if (!response.ok) return { ok: false, error: { code: 'internal', message: 'The app host refused the request (' + response.status + ').' } };
      return await response.json();
    } catch (e) {
      return { ok: false, error: { code: 'internal', message: 'The app host is not running. Start it again and reload this page.' } };
    }
  };
  const on = (name, listener) => {
    if (!listeners.has(name)) listeners.set(name, new Set());
    listeners.get(name).add(listener);
    return () => listeners.get(name).delete(listener);
  };
  // The core asks for the system browser: here that is a new tab of this browser.
  on('host:open-url', ({ url }) => { if (/^https?:\\/\\//.test(url)) window.open(url, '_blank', 'noopener'); });
  Object.defineProperty(window, ${JSON.stringify('learningDesktop')}, { value: Object.freeze({ invoke, on }), writable: false });
})();
`;
}
