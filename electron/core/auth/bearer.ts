/**
 * The rules every request carrying a site's access token follows, whoever sends it (the token
 * manager's fetch, or the writer worker through `sendWith`): the site's own origin only (RFC 6750
 * §5.3, RFC 8707), one refresh and one retry on 401, and a 403 insufficient_scope reported with the
 * scopes it names (RFC 6750 §3.1).
 */
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { redactString } from '../log';
import type { FetchLike } from '../net/http';

/** Same shape as the global fetch, so it can be handed to GraphQL clients as is. */
export type AuthorizedFetch = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

/**
 * What a request sent by someone else answered (its body already read there): enough for the 401
 * and 403 rules.
 */
export interface SentAnswer {
  readonly status: number;
  readonly wwwAuthenticate: string | null;
}
/**
 * A request the caller sends itself (the writer worker sends the sync's pages) with the site's
 * token, under fetchFor's rules: `send` gets the token and the checked absolute URL, and may be
 * called twice (after a refresh).
 */
export type AuthorizedSend = <R extends SentAnswer>(
  target: string,
  send: (token: string, url: string) => Promise<R>,
) => Promise<R>;

interface Answered extends SentAnswer {
  /** Lets go of the answer's body (a Response's stream). */
  discard(): Promise<void>;
}

/** What the requests need from the token manager. */
export interface BearerRules {
  readonly fetch: FetchLike;
  readonly log: Logger;
  /** The site origin: the only origin its tokens are ever sent to. */
  originOf(siteId: string): string;
  getAccessToken(siteId: string): Promise<string>;
  /** Refreshes single-flight, skipping it when the stored token already differs from `rejected`. */
  refresh(siteId: string, rejected: string): Promise<string>;
  /** A 401 survived one refresh: `token` was refused too, and the site needs a new sign-in. */
  refused(siteId: string, token: string): Promise<void>;
  readonly onInsufficientScope?: (
    siteId: string,
    scopes: readonly string[],
  ) => Promise<void> | void;
}

export function createAuthorizedRequests(rules: BearerRules): {
  fetchFor(siteId: string): AuthorizedFetch;
  sendWith(siteId: string): AuthorizedSend;
} {
  return {
    fetchFor: (siteId) => fetchFor(rules, siteId),
    sendWith: (siteId) => sendWith(rules, siteId),
  };
}

/** fetch with the site's token, under `authorized`'s rules. */
function fetchFor(rules: BearerRules, siteId: string): AuthorizedFetch {
  return async (input, givenInit = {}) => {
    let init: RequestInit = givenInit;
    let target: string | URL;
    if (input instanceof Request) {
      // Unpack a Request so the body can be sent twice (the retry after a refresh).
      const hasBody = input.method !== 'GET' && input.method !== 'HEAD';
      init = {
        method: input.method,
        headers: input.headers,
        signal: input.signal,
        ...(hasBody ? { body: await input.clone().arrayBuffer() } : {}),
        ...givenInit,
      };
      target = input.url;
    } else {
      target = input;
    }
    return authorized(
      rules,
      siteId,
      target,
      (token, url) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${token}`);
        // No redirects with a bearer token attached: a redirect could lead to another origin.
        return rules.fetch(url.href, { ...init, headers, redirect: 'manual' });
      },
      (res) => ({
        status: res.status,
        wwwAuthenticate: res.headers.get('www-authenticate'),
        discard: async () => void (await res.body?.cancel()),
      }),
    );
  };
}

/** A request someone else sends, with the site's token, under `authorized`'s rules. */
function sendWith(rules: BearerRules, siteId: string): AuthorizedSend {
  return (target, send) =>
    authorized(
      rules,
      siteId,
      target,
      (token, url) => send(token, url.href),
      (answer) => ({
        status: answer.status,
        wwwAuthenticate: answer.wwwAuthenticate,
        discard: async () => {},
      }),
    );
}

/**
 * The rules every request with a site's token follows, whoever sends it: the site's own origin only
 * (RFC 6750 §5.3, RFC 8707), one refresh and one retry on 401 (a second 401 ends the sign-in), and
 * a 403 insufficient_scope reported with the scopes it names (RFC 6750 §3.1).
 */
async function authorized<R>(
  rules: BearerRules,
  siteId: string,
  target: string | URL,
  send: (token: string, url: URL) => Promise<R>,
  answer: (r: R) => Answered,
): Promise<R> {
  const url = sameOrigin(target, rules.originOf(siteId));
  const token = await rules.getAccessToken(siteId);
  const res = await send(token, url);
  const seen = answer(res);
  if (seen.status === 401) return retryOnce(rules, siteId, token, url, send, answer, seen);
  await refuseInsufficientScope(rules, siteId, seen);
  return res;
}

/** RFC 6750 §5.3 / RFC 8707: never hand a site's token to another origin. */
function sameOrigin(target: string | URL, origin: string): URL {
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    throw new CoreError('invalid-input', 'That address is not valid.');
  }
  if (url.origin !== origin) {
    throw new CoreError(
      'forbidden',
      `Refusing to send this site's sign-in to another address (${url.origin}).`,
    );
  }
  return url;
}

/** RFC 6750 §3.1 invalid_token: one refresh and one retry; a second 401 ends the sign-in. */
async function retryOnce<R>(
  rules: BearerRules,
  siteId: string,
  token: string,
  url: URL,
  send: (token: string, url: URL) => Promise<R>,
  answer: (r: R) => Answered,
  first: Answered,
): Promise<R> {
  await first.discard();
  rules.log.info('401 from the site; refreshing once', { siteId, path: url.pathname });
  const next = await rules.refresh(siteId, token);
  const res = await send(next, url);
  const seen = answer(res);
  if (seen.status === 401) {
    await seen.discard();
    await rules.refused(siteId, next);
    throw new CoreError(
      'sign-in-needed',
      'The site no longer accepts your sign-in. Sign in again; your offline data is kept.',
    );
  }
  await refuseInsufficientScope(rules, siteId, seen);
  return res;
}

/** RFC 6750 §3.1: a 403 insufficient_scope is reported with the scopes it names, and thrown. */
async function refuseInsufficientScope(
  rules: BearerRules,
  siteId: string,
  seen: Answered,
): Promise<void> {
  if (seen.status !== 403) return;
  const challenge = parseBearerChallenge(seen.wwwAuthenticate);
  if (challenge.error !== 'insufficient_scope') return;
  await seen.discard();
  // Only scope names are kept: the challenge is the site's text, and what it names is saved with
  // the site (sites.json) and shown to the user, so nothing shaped like a token (or equal to a
  // secret) gets through.
  const scopes = (challenge.scope ?? '').split(' ').filter(isScopeName);
  await rules.onInsufficientScope?.(siteId, scopes);
  const scope = scopes.join(' ');
  throw new CoreError(
    'insufficient-scope',
    scope
      ? `This site did not give the app permission for "${scope}". Sign in again to allow it.`
      : 'This site did not give the app the permission this needs. Sign in again to allow it.',
    { scope: scope || null },
  );
}

/**
 * A scope name as the spec writes them (`openid`, `account:read`), never a secret the app holds.
 */
export function isScopeName(value: string): boolean {
  return (
    /^[a-z][a-z0-9_.-]{0,40}(:[a-z][a-z0-9_.-]{0,40})?$/.test(value) &&
    redactString(value) === value
  );
}

/** Parses the auth-params of a Bearer challenge (RFC 6750 §3, RFC 9110 §11.6.1). */
export function parseBearerChallenge(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  const m = /Bearer\s+(.*)$/i.exec(header);
  if (!m) return out;
  const re = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  let part: RegExpExecArray | null;
  while ((part = re.exec(m[1] as string)) !== null) {
    const key = (part[1] as string).toLowerCase();
    out[key] = part[2] !== undefined ? part[2].replace(/\\(.)/g, '$1') : (part[3] as string);
  }
  return out;
}
