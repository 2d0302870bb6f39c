/**
 * Where a host name points, as far as it can be told without asking DNS: a loopback or private
 * address literal (RFC 1918, RFC 4193, link-local, CGNAT, unspecified), `localhost`, or anything
 * else (public). A site on the Internet must not steer the app to the student's own computer or
 * network (SSRF through discovery), nor the student's browser (a download or join link). Pure
 * (ipaddr.js is plain JavaScript): every process uses it.
 */
import ipaddr from 'ipaddr.js';

export type HostKind = 'loopback' | 'private' | 'public';

export function hostKind(hostname: string): HostKind {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (!ipaddr.isValid(host)) return 'public';
  let address = ipaddr.parse(host);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  return range === 'unicast' ? 'public' : 'private';
}
