import type { EventName } from './ipc-contract';

/** Runtime names of the contract that the renderer side needs without pulling in the input schemas. */

/** Name of the global the preload/bridge defines: `window.learningDesktop`. */
export const API_GLOBAL = 'learningDesktop';

export const EVENT_NAMES: readonly EventName[] = [
  'sites:changed',
  'sign-in:progress',
  'sync:progress',
  'data:changed',
  'network:changed',
  'settings:changed',
  'app:command',
  'host:open-url',
];

/** Browser host wire format (loopback HTTP). */
export const BROWSER_HOST_PATHS = {
  invoke: '/__host/invoke/',
  events: '/__host/events',
  bridge: '/__host/bridge.js',
  session: '/__host/session',
} as const;
