import type { EventName } from '../common/ipc-contract';
import { BROWSER_HOST_PATHS } from '../common/ipc-names';
import { FIRST_ANSWERS_FOR_MS, FIRST_ANSWERS_ID } from './first-answers';
import { PAGE_KEY_HEADER } from './sessions';

/** Names the page an invoke comes from (the bridge's random id for this page load). */
export const PAGE_HEADER = 'x-ld-page';

/** The launch page's data block with the page key (sessions.ts), read and removed by the bridge. */
export const SESSION_ELEMENT_ID = 'ld-host-session';

/**
 * The event stream's first event: the host's per-launch id. Its last, when the host stops:
 * `host:stopped`.
 */
export const HELLO_EVENT = 'host:hello';
export const STOPPED_EVENT = 'host:stopped';

/**
 * The page key's name in the origin's storage: reloads and new tabs of the same origin find it
 * there.
 */
const KEY_STORE = 'ld-host-key';

/**
 * A network error on the event stream is retried this often, a second apart, before the page says
 * the app stopped.
 */
const RECONNECTS = 3;

/**
 * The browser host's stand-in for the preload: a small script that defines the same
 * `window.learningDesktop` object, speaking the contract over loopback HTTP (invoke) and a
 * server-sent event stream read with fetch (so it can carry the page key in a header, which
 * EventSource cannot). Served as a file so the page's CSP can forbid inline script.
 *
 * The page obeys only its own host: the stream must open with the host id it opened with the first
 * time, so a process that binds the port after the host stopped gets no call and opens no tab; the
 * page then says the app has stopped.
 */
export function bridgeScript(eventNames: readonly EventName[]): string {
  return `(() => {
  'use strict';
  const listeners = new Map();
  const known = new Set(${JSON.stringify(eventNames)});
  // This page load's id: the host opens a sign-in tab from the page that asked for it, not from every open page.
  const pageId = crypto.randomUUID();
  const emit = (name, payload) => { for (const l of listeners.get(name) || []) { try { l(payload); } catch (e) { console.error(e); } } };
  ${pageKeyScript()}
  ${noticeScript()}
  ${streamScript()}
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
  for (const name of ['data:changed', 'sites:changed', 'settings:changed']) on(name, () => (first = false));
  const invoke = async (channel, input) => {
    const answer = takeFirst(channel, input);
    if (answer !== undefined) return answer;
    if (stopped) return { ok: false, error: { code: 'internal', message: stoppedMessage } };
    // While the stream is lost, whoever answers on the port may not be this page's host: no call leaves until it is back.
    if (lost) return { ok: false, error: { code: 'internal', message: 'The app host is not answering. Wait a moment and try again.' } };
    try {
      const response = await fetch(${JSON.stringify(BROWSER_HOST_PATHS.invoke)} + encodeURIComponent(channel), {
        method: 'POST', headers: { 'content-type': 'application/json', ...keyHeaders() }, credentials: 'same-origin',
        body: JSON.stringify(input === undefined ? {} : { input }),
      });
      if (!response.ok) return { ok: false, error: { code: 'internal', message: 'The app host refused the request (' + response.status + ').' } };
      return await response.json();
    } catch (e) {
      return { ok: false, error: { code: 'internal', message: 'The app host is not running. Start it again and reload this page.' } };
    }
  };
  function on(name, listener) {
    if (!listeners.has(name)) listeners.set(name, new Set());
    listeners.get(name).add(listener);
    return () => listeners.get(name).delete(listener);
  }
  // The core asks for the system browser: here that is a new tab of this browser.
  on('host:open-url', ({ url }) => { if (!stopped && /^https?:\\/\\//.test(url)) window.open(url, '_blank', 'noopener'); });
  connect(0);
  Object.defineProperty(window, ${JSON.stringify('learningDesktop')}, { value: Object.freeze({ invoke, on }), writable: false });
})();
`;
}

/**
 * The page key: from the launch page (kept for reloads and new tabs of this origin), else from the
 * origin's storage.
 */
function pageKeyScript(): string {
  return `let key = null;
  const handed = document.getElementById(${JSON.stringify(SESSION_ELEMENT_ID)});
  if (handed) {
    try { key = JSON.parse(handed.textContent).key; } catch { key = null; }
    handed.remove();
    try { localStorage.setItem(${JSON.stringify(KEY_STORE)}, key); } catch {}
  } else {
    try { key = localStorage.getItem(${JSON.stringify(KEY_STORE)}); } catch {}
  }
  // The launch link is used up: the address bar, the history and a reload show the app's own address instead.
  if (new URLSearchParams(location.search).has('launch')) history.replaceState(history.state, '', location.pathname + location.hash);
  const keyHeaders = () => ({ ${JSON.stringify(PAGE_KEY_HEADER)}: key || '', ${JSON.stringify(PAGE_HEADER)}: pageId });`;
}

/**
 * "The app has stopped" (or "open the app from its link"), over the page, in the page's language.
 */
function noticeScript(): string {
  return `const chinese = () => (document.documentElement.lang || navigator.language || '').toLowerCase().startsWith('zh');
  const stoppedMessage = 'The app has stopped. Start it again and open the link it prints.';
  let stopped = false;
  const notice = (kind) => {
    const zh = chinese();
    const text = kind === 'stopped'
      ? (zh ? ['應用程式已停止', 'Learning Desktop 已關閉，這個頁面已無法讀取你的資料。請再次啟動應用程式，並開啟它顯示的連結。']
            : ['The app has stopped', 'Learning Desktop was closed, so this page can no longer reach your data. Start the app again and open the link it prints.'])
      : (zh ? ['請從應用程式的連結開啟', '這個頁面不是從 Learning Desktop 的連結開啟的。請開啟它啟動時顯示的連結（在它的視窗按 Enter 可取得新的連結）。']
            : ['Open the app from its link', 'This page was not opened from Learning Desktop’s link. Open the link it printed when it started (press Enter in its window for a new one).']);
    const dialog = document.createElement('dialog');
    dialog.setAttribute('role', 'alertdialog');
    dialog.setAttribute('aria-labelledby', 'ld-host-notice-title');
    dialog.dataset.testid = 'host-notice';
    dialog.style.cssText = 'max-width:28rem;padding:1.5rem;border:1px solid #888;border-radius:8px;font:16px/1.5 system-ui,sans-serif';
    const title = document.createElement('h2');
    title.id = 'ld-host-notice-title';
    title.style.cssText = 'margin:0 0 .5rem;font-size:1.25rem';
    title.textContent = text[0];
    const body = document.createElement('p');
    body.style.margin = '0';
    body.textContent = text[1];
    dialog.append(title, body);
    // Nothing on this page can work any more: the notice stays (Escape does not close it).
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    const show = () => { document.body.append(dialog); dialog.showModal(); };
    if (document.body) show(); else document.addEventListener('DOMContentLoaded', show, { once: true });
  };
  const stop = (kind) => {
    if (stopped) return;
    stopped = true;
    notice(kind);
  };`;
}

/**
 * The event stream (text/event-stream, read by hand): the first event must name this page's host.
 */
function streamScript(): string {
  return `let hostId = null;
  let streams = 0;
  let lost = false;
  const connect = async (attempt) => {
    if (stopped) return;
    if (!key) return stop('no-link');
    const firstStream = streams++ === 0;
    let opened = false;
    try {
      const response = await fetch(${JSON.stringify(BROWSER_HOST_PATHS.events)}, { method: 'POST', headers: keyHeaders(), credentials: 'same-origin', cache: 'no-store' });
      // Refused: whoever answers does not know this page's key, so it is not this page's host (or never was).
      if (!response.ok || !response.body) return stop(hostId === null ? 'no-link' : 'stopped');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\\n\\n'); end >= 0; end = buffer.indexOf('\\n\\n')) {
          const block = buffer.slice(0, end).split('\\n');
          buffer = buffer.slice(end + 2);
          const name = (block.find((l) => l.startsWith('event: ')) || '').slice(7);
          const data = block.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\\n');
          if (!name) continue;
          let payload;
          try { payload = JSON.parse(data); } catch { continue; }
          if (!opened) {
            // The first event names the host. A page trusts the host that served it, on its first stream only; a
            // reconnection must find the same one (a page whose host died before naming itself trusts nobody).
            if (name !== ${JSON.stringify(HELLO_EVENT)} || typeof payload.host !== 'string') return stop('stopped');
            if (hostId === null ? !firstStream : payload.host !== hostId) return stop('stopped');
            hostId = payload.host;
            opened = true;
            lost = false;
            attempt = 0;
            continue;
          }
          if (name === ${JSON.stringify(STOPPED_EVENT)}) return stop('stopped');
          if (known.has(name)) emit(name, payload);
        }
      }
    } catch {}
    if (stopped) return;
    lost = true;
    if (attempt >= ${RECONNECTS}) return stop('stopped');
    setTimeout(() => connect(attempt + 1), 1000);
  };`;
}
