/**
 * Runtime names of the contract that the renderer side needs without pulling in the input schemas.
 */

/** Name of the global the preload/bridge defines: `window.learningDesktop`. */
export const API_GLOBAL = 'learningDesktop';

/**
 * Every event the core pushes. ipc-contract.ts checks at compile time that this list and its
 * IpcEvents map name the same events, so neither file imports the other's types.
 */
export const EVENT_NAMES = [
  'sites:changed',
  'sign-in:progress',
  'sync:progress',
  'data:changed',
  'network:changed',
  'settings:changed',
  'app:command',
  'host:open-url',
  'invite:opened',
  'updates:changed',
  'desktop:notification',
  'downloads:changed',
  'archive:progress',
] as const;

/** Browser host wire format (loopback HTTP). */
export const BROWSER_HOST_PATHS = {
  invoke: '/__host/invoke/',
  events: '/__host/events',
  bridge: '/__host/bridge.js',
  /** One-time downloads and print views of the files the student asked for. */
  files: '/__host/files/',
  /** The print view's script (window.print), a file because the CSP forbids inline script. */
  print: '/__host/print.js',
  /**
   * The browser host's invite address: `/add-site?site=...&client_id=...` (electron/core/invite).
   */
  invite: '/add-site',
} as const;

/** The most items one page call returns: each page is answered from an index in well under 5 ms. */
export const PAGE_LIMIT_MAX = 100;
