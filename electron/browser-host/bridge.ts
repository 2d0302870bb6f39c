import type { EventName } from '../common/ipc-contract';
import { BROWSER_HOST_PATHS } from '../common/ipc-names';
import { FIRST_ANSWERS_FOR_MS, FIRST_ANSWERS_ID } from './first-answers';

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
  // The first screen's answers, sent at the end of the page (first-answers.ts): each stands in for its channel's
  // first call without input, once, while the page starts; a change the core announces drops them all.
  let first = null;
  const takeFirst = (channel, input) => {
    if (input !== undefined || first === false) return undefined;
    if (first === null) {
      const element = document.getElementById(${JSON.stringify(FIRST_ANSWERS_ID)});
      try { first = element ? JSON.parse(element.textContent) : false; } catch { first = false; }
      element?.remove();
      setTimeout(() => (first = false), ${FIRST_ANSWERS_FOR_MS});
    }
    if (!first || !Object.prototype.hasOwnProperty.call(first, channel)) return undefined;
    const answer = first[channel];
    delete first[channel];
    return answer;
  };
  for (const name of ['data:changed', 'sites:changed', 'settings:changed']) source.addEventListener(name, () => (first = false));
  const invoke = async (channel, input) => {
    const answer = takeFirst(channel, input);
    if (answer !== undefined) return answer;
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
