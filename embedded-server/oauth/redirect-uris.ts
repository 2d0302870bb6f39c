/** Loopback redirect per RFC 8252 §7.3: http scheme, literal 127.0.0.1 or [::1] ("localhost" is not: §8.3). */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === '[::1]') && !u.hash && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * Exact string match (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3), with one exception:
 * RFC 8252 §7.3: a registered loopback redirect accepts any port, since native apps get an ephemeral one.
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  if (!isLoopbackRedirect(presented)) return false;
  const p = new URL(presented);
  return registered.some((r) => {
    if (!isLoopbackRedirect(r)) return false;
    const u = new URL(r);
    // RFC 8252 §7.3: any port on loopback; everything else must match exactly.
    return u.hostname === p.hostname && u.pathname === p.pathname && u.search === p.search;
  });
}
