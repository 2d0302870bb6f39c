import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may use the browser host, decided in one place. Three credentials, each with one job:
 * - a launch token: in the link the host prints or hands to the system browser. Used once and soon
 *   expired, so a link read later from a browser's history, a terminal's scrollback or a process
 *   list opens nothing.
 * - the session cookie: set by the launch page, HttpOnly. Cookies are not port-scoped (RFC 6265
 *   §8.5): the browser sends it to every port of 127.0.0.1, so whoever serves another port may
 *   receive it. Alone it opens only what a browser loads by address (the page's files, a saved
 *   file, a one-time download), never the student's data.
 * - the page key: handed to the page inside the launch page, kept by the bridge in the origin's
 *   storage (which, unlike a cookie, is scoped to scheme, host and port) and sent in a header with
 *   every call and event stream. No other port ever sees it, and a cross-origin page cannot send a
 *   custom header without a preflight, which the host never grants.
 * Each is compared in constant time. The host id is not a credential: the event stream opens with it so the bridge
 * can tell its own host from a process that binds the port after the host stopped.
 */
export interface HostSessions {
  /** A new launch token: valid for LAUNCH_TOKEN_LIFETIME_MS, once. */
  newLaunchToken(): string;
  /** Uses up a launch token; false when it is unknown, already used or expired. */
  redeem(token: string): boolean;
  readonly cookieName: string;
  /** The Set-Cookie value the launch page sends. */
  readonly setCookie: string;
  readonly pageKey: string;
  readonly hostId: string;
  /** The request carries the session cookie. */
  hasCookie(req: IncomingMessage): boolean;
  /** The request carries the session cookie and the page key. */
  hasPageKey(req: IncomingMessage): boolean;
}

/** The header the bridge sends the page key in. */
export const PAGE_KEY_HEADER = 'x-ld-key';
/** Long enough to open a printed link by hand, short enough that a link found later is dead. */
export const LAUNCH_TOKEN_LIFETIME_MS = 5 * 60_000;
/** Launch tokens held at once: each CLI start asks for two; more are dropped oldest first. */
const MAX_LAUNCH_TOKENS = 20;

export function createHostSessions(port: number, clock: { now(): number } = Date): HostSessions {
  const secret = () => randomBytes(32).toString('base64url');
  const launchTokens = new Map<string, number>();
  const cookieValue = secret();
  const pageKey = secret();
  // Two hosts on one machine (one per port) never share a cookie.
  const cookieName = `ld_host_${port}`;
  const prune = () => {
    const now = clock.now();
    for (const [token, expiresAt] of launchTokens) if (expiresAt <= now) launchTokens.delete(token);
    while (launchTokens.size > MAX_LAUNCH_TOKENS)
      launchTokens.delete(launchTokens.keys().next().value!);
  };
  const hasCookie = (req: IncomingMessage): boolean => {
    for (const c of req.headers.cookie?.split(';') ?? []) {
      const [name, ...rest] = c.trim().split('=');
      if (name === cookieName) return safeEqual(rest.join('='), cookieValue);
    }
    return false;
  };
  return {
    newLaunchToken() {
      const token = secret();
      launchTokens.set(token, clock.now() + LAUNCH_TOKEN_LIFETIME_MS);
      prune();
      return token;
    },
    redeem(token) {
      prune();
      for (const known of launchTokens.keys()) {
        if (!safeEqual(token, known)) continue;
        launchTokens.delete(known);
        return true;
      }
      return false;
    },
    cookieName,
    setCookie: `${cookieName}=${cookieValue}; HttpOnly; SameSite=Strict; Path=/`,
    pageKey,
    hostId: randomBytes(16).toString('base64url'),
    hasCookie,
    hasPageKey: (req) => {
      const key = req.headers[PAGE_KEY_HEADER];
      return hasCookie(req) && typeof key === 'string' && safeEqual(key, pageKey);
    },
  };
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
