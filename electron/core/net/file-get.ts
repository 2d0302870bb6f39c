/**
 * One GET of a file, streamed (node:http / node:https rather than fetch: the body is piped straight
 * into a file without a web-stream layer in between, and a cut connection surfaces as an error on
 * the body). Never follows a redirect itself: the caller checks every hop under its own rules. A
 * connection that goes silent for `idleTimeoutMs` is cut (node:http has no deadline of its own).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { hostKind } from '../../common/host-kind';
import { CoreError } from '../errors';

export interface FileGetOptions {
  readonly method?: 'GET' | 'HEAD';
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Silence (no connect, no headers, no body bytes) for this long cuts the connection. */
  readonly idleTimeoutMs: number;
  /**
   * Connect to public addresses only (a site on the Internet): a host name that resolves to this
   * computer or its network (DNS rebinding, a name pointed at 127.0.0.1) counts as that address and
   * is refused before any connection is made, and the address actually connected to is checked
   * again.
   */
  readonly publicOnly?: boolean;
}

/**
 * Resolves with the answer's head; its body is the IncomingMessage stream (the caller reads or
 * destroys it).
 */
export function fileGet(url: URL, options: FileGetOptions): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(abortReason(options.signal));
    const req = send(url, {
      method: options.method ?? 'GET',
      headers: { ...options.headers },
      signal: options.signal,
      ...(options.publicOnly ? { lookup: publicLookup(url) } : {}),
    });
    if (options.publicOnly)
      req.once('socket', (socket) => refuseLocalPeer(socket, url, (error) => req.destroy(error)));
    req.setTimeout(options.idleTimeoutMs, () => {
      req.destroy(new CoreError('site-unreachable', `${url.origin} stopped answering.`));
    });
    req.once('response', (res) => {
      // The same silence rule while the body streams (the request's timeout covers its socket
      // either way).
      resolve(res);
    });
    req.once('error', (cause) => {
      if (options.signal.aborted) return reject(abortReason(options.signal));
      reject(
        cause instanceof CoreError
          ? cause
          : new CoreError(
              'site-unreachable',
              `Could not reach ${url.origin}. Check your connection and try again.`,
              undefined,
              { cause },
            ),
      );
    });
    req.end();
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error
    ? signal.reason
    : new CoreError('sync-cancelled', 'Stopped.');
}

function localAddressError(url: URL): CoreError {
  return new CoreError(
    'forbidden',
    `${url.hostname} leads to this computer or its local network, which a school on the Internet may not use.`,
    {
      reason: 'unsafe-address',
    },
  );
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup, refusing a name any of whose addresses is loopback or private (a mixed answer is a
 * rebinding trick).
 */
function publicLookup(
  url: URL,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) =>
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((a) => hostKind(a.address) !== 'public')) {
        // net hands this error to the request as it is: the CoreError reaches the caller.
        return callback(localAddressError(url) as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
}

/**
 * The address the socket did connect to (a literal, a reused connection, a lookup bypassed): public
 * only.
 */
function refuseLocalPeer(socket: Socket, url: URL, destroy: (error: CoreError) => void): void {
  const check = (): void => {
    if (socket.remoteAddress !== undefined && hostKind(socket.remoteAddress) !== 'public')
      destroy(localAddressError(url));
  };
  if (socket.connecting) socket.once('connect', check);
  else check();
}
