import type { IncomingMessage } from 'node:http';

/**
 * The Host names this site answers to: its own origin's host, and the loopback name `localhost`,
 * both with the port it listens on. A page on another name that resolves to 127.0.0.1 (DNS
 * rebinding) sends its own name as Host and is refused, so it cannot sign in with the demo school's
 * published passwords or read what a signed-in browser sees.
 */
export function allowedHosts(baseUrl: string): ReadonlySet<string> {
  const { host, port } = new URL(baseUrl);
  return new Set([host.toLowerCase(), `localhost:${port}`]);
}

/**
 * RFC 9110 §7.2 / §15.5.20: a request whose Host names another authority is answered 421
 * Misdirected Request.
 */
export function hostAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  return host !== undefined && allowed.has(host.toLowerCase());
}
