/**
 * Redirect URIs are compared as the strings the client wrote, never after URL normalization (RFC
 * 6749 §3.1.2.2 and §3.1.2.3, OAuth 2.1 §2.3.1, RFC 9700 §4.1.3): `HTTP://127.0.0.1`,
 * `http://0x7f.1` and `http://2130706433` all parse to the same URL as `http://127.0.0.1`, and none
 * of them is what was registered.
 */

/**
 * A loopback redirect as RFC 8252 §7.3 and §8.3 write it: lower-case `http`, the literal 127.0.0.1
 * or [::1] ("localhost" is not one), an optional port, a path or query, no fragment, no user info.
 * Groups: host, port, rest (path and query).
 */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([0-9]{1,5}))?([/?][^#]*)?$/;

function loopbackParts(uri: string): { host: string; port: string | null; rest: string } | null {
  const m = LOOPBACK.exec(uri);
  if (!m) return null;
  const port = m[2] ?? null;
  if (
    port !== null &&
    (Number(port) < 1 || Number(port) > 65535 || (port.length > 1 && port.startsWith('0')))
  )
    return null;
  return { host: m[1] as string, port, rest: m[3] ?? '' };
}

/** Loopback redirect per RFC 8252 §7.3, as written (see loopbackParts). */
export function isLoopbackRedirect(uri: string): boolean {
  return loopbackParts(uri) !== null;
}

/**
 * Exact string match (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3), with one exception: RFC 8252 §7.3 lets a
 * registered loopback redirect take any port, since native apps get an ephemeral one. Only the port
 * may differ; scheme, host and path are compared character for character.
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const p = loopbackParts(presented);
  if (p === null) return false;
  return registered.some((r) => {
    const u = loopbackParts(r);
    return u !== null && u.host === p.host && u.rest === p.rest;
  });
}
