import type { InviteOutcome, InviteRefusal } from '../../common/files-and-invites';
import { isLoopbackHost } from '../net/http';

/**
 * A school's invite link: `learning-desktop://add-site?site=<origin>&client_id=<id>`, the custom
 * scheme the app registers (scheme and host compared without case, RFC 3986 §3.1, §3.2.2), or the
 * browser host's own form `http://127.0.0.1:<port>/add-site?site=...&client_id=...`. It only fills
 * in the add-site form: the student confirms, and nothing signs in by itself. The link arrives from
 * outside the app (another program, a web page, a paste), so it is read strictly and anything
 * doubtful is refused with a reason.
 */
export const INVITE_SCHEME = 'learning-desktop';
const INVITE_ACTION = 'add-site';
/**
 * Longer than any honest link (an origin and a client id); bounds the work done on a hostile one.
 */
export const INVITE_MAX_LENGTH = 2048;

/**
 * Parameter names that carry a credential. A link is shared in e-mails, chats and web pages: a
 * secret in it is already leaked, and accepting it would teach schools to send one. Refused, never
 * read.
 */
const SECRET_PARAMETERS = new Set([
  'client_secret',
  'secret',
  'password',
  'passwd',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'assertion',
  'api_key',
  'apikey',
]);
/**
 * RFC 6749 Appendix A.1: client_id is VSCHAR (%x20-7E); the space is refused too (no honest id has
 * one).
 */
const CLIENT_ID = /^[\x21-\x7e]{1,255}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\s]/;

const refuse = (refusal: InviteRefusal): InviteOutcome => ({ ok: false, refusal });

/**
 * True for the two shapes of an invite link (used to route a link to the parser, never to trust
 * it).
 */
export function looksLikeInviteLink(raw: string): boolean {
  return raw.trim().toLowerCase().startsWith(`${INVITE_SCHEME}:`);
}

export function parseInviteLink(input: unknown): InviteOutcome {
  if (typeof input !== 'string') return refuse('malformed');
  if (input.length > INVITE_MAX_LENGTH) return refuse('too-long');
  const raw = input.trim();
  // The WHATWG URL parser silently drops tabs and line breaks ("java\nscript:" reads as
  // "javascript:"): a link with any control character or white space is refused before it is
  // parsed.
  if (raw === '' || CONTROL.test(raw)) return refuse('malformed');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('malformed');
  }

  const isScheme =
    url.protocol === `${INVITE_SCHEME}:` &&
    url.hostname.toLowerCase() === INVITE_ACTION &&
    (url.pathname === '' || url.pathname === '/') &&
    url.port === '';
  const isHostRoute =
    url.protocol === 'http:' &&
    isLoopbackHost(url.hostname) &&
    url.pathname === `/${INVITE_ACTION}`;
  if (!isScheme && !isHostRoute) return refuse('not-an-invite');
  if (url.username || url.password) return refuse('secret-in-link');

  // Parameters come from the query only (the fragment is not read). URLSearchParams decodes names
  // and values (percent-encoding, '+'), so `client%5Fid` is client_id and counts as a second one
  // when both appear.
  const params = new URLSearchParams(url.search);
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    const key = name.toLowerCase();
    if (SECRET_PARAMETERS.has(key)) return refuse('secret-in-link');
    // unknown parameters (a tracker's utm_*) are ignored
    if (key !== 'site' && key !== 'client_id') continue;
    if (name !== key || seen.has(key)) return refuse('duplicate-parameter');
    seen.set(key, value);
  }

  const site = seen.get('site');
  if (site === undefined || site === '') return refuse('site-missing');
  const siteCheck = readSite(site);
  if (!siteCheck.ok) return refuse(siteCheck.refusal);

  const clientId = seen.get('client_id');
  if (clientId === undefined || clientId === '') return refuse('client-id-missing');
  if (!CLIENT_ID.test(clientId)) return refuse('client-id-invalid');

  return { ok: true, invite: { baseUrl: siteCheck.origin, clientId } };
}

/**
 * The site parameter: an http(s) origin and nothing else (the add-site form's rule,
 * normalizeBaseUrl).
 */
function readSite(
  value: string,
): { ok: true; origin: string } | { ok: false; refusal: InviteRefusal } {
  // The query was decoded once already; an origin has no '%' of its own, and the URL parser would
  // decode a host's escapes a second time (`%2573` -> `%73` -> `s`): what the student is shown must
  // be what the link said.
  if (value.length > 512 || CONTROL.test(value) || value.includes('%'))
    return { ok: false, refusal: 'site-invalid' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, refusal: 'site-invalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, refusal: 'site-not-https' };
  // Plain http only for this computer (RFC 8252 §8.3 spirit), as everywhere else in the app.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return { ok: false, refusal: 'site-not-https' };
  if (url.username || url.password) return { ok: false, refusal: 'site-has-credentials' };
  // An origin only: a path, query or fragment could make the form look like one site and add
  // another (`https://good.example\@evil.example` reads as good.example with the path
  // /@evil.example).
  if (
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.hash ||
    /[?#]$/.test(value)
  )
    return { ok: false, refusal: 'site-not-origin' };
  if (url.hostname === '') return { ok: false, refusal: 'site-invalid' };
  // url.origin carries the host as the URL parser wrote it: an internationalised name in its ASCII
  // (xn--) form.
  return { ok: true, origin: url.origin };
}

/**
 * The link for a site and client id (the admin page writes the same; the tests and the docs use
 * this one).
 */
export function inviteLink(baseUrl: string, clientId: string): string {
  const q = new URLSearchParams({ site: new URL(baseUrl).origin, client_id: clientId });
  return `${INVITE_SCHEME}://${INVITE_ACTION}?${q.toString()}`;
}

/**
 * The invite link among a process's arguments (Windows and Linux start the app, or a second
 * instance of it, with the link as an argument; macOS sends 'open-url' instead). Only an argument
 * in the app's scheme is taken, and the parser still decides whether it is a valid invite.
 */
export function inviteArgument(argv: readonly string[]): string | null {
  return argv.find((arg) => typeof arg === 'string' && looksLikeInviteLink(arg)) ?? null;
}
