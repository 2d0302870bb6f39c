/**
 * The loopback redirect receiver of a native app (RFC 8252 §7.3): listens on 127.0.0.1 with an OS-assigned
 * port only while one sign-in is in progress, takes exactly one callback at /callback, answers the browser
 * tab with a small self-contained page, and closes. A request that is not the answer to this sign-in (no
 * query, another state) is refused with 400 and the listener stays open: any local process or page that guesses
 * the port could otherwise cancel the member's sign-in (RFC 6749 §10.12, RFC 8252 §8.1). RFC 8252 §8.3: the literal 127.0.0.1 rather than
 * "localhost", so the listener cannot be shadowed by another interface or a hosts-file entry. The Host header must
 * be exactly that address (RFC 9110 §7.4: 421 for a request this server is not the authority for), so a page on
 * another name that resolves to 127.0.0.1 (DNS rebinding) cannot reach it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { CallbackVerdict } from './callback-page';
import { pageLanguage, renderCallbackPage } from './callback-page';

export type CallbackPageKind = 'success' | 'cancelled' | 'error';

export interface LoopbackReceiver {
  /** http://127.0.0.1:<port>/callback */
  readonly redirectUri: string;
  /** Resolves with the query of the first request to /callback that `belongs` accepts. */
  readonly callback: Promise<URLSearchParams>;
  /**
   * The app's verdict on the sign-in (after the code exchange and the identity check): the browser tab, held open
   * meanwhile when `awaitVerdict` is set, shows it. Only the first call counts.
   */
  finish(verdict: CallbackVerdict): void;
  /** Stops listening and drops any open connection. Safe to call more than once. */
  close(): Promise<void>;
}

export interface LoopbackReceiverOptions {
  /**
   * Decides which page the browser tab shows for the callback (it runs before the page is sent). The sign-in
   * flow passes its own checks here so that a forged callback never shows "You are signed in".
   */
  readonly classify?: (params: URLSearchParams) => CallbackPageKind;
  /**
   * Whether a callback is the answer to this sign-in (the sign-in flow checks its `state`). One that is not gets
   * 400 and is otherwise ignored. Default: every callback belongs.
   */
  readonly belongs?: (params: URLSearchParams) => boolean;
  readonly logger?: Logger;
  readonly appName?: string;
  /**
   * Hold the tab's page until `finish` gives the verdict (at most `verdictTimeoutMs`, default 30 s, then the page
   * says to return to the app to finish): the page never says "signed in" before the app knows it is.
   */
  readonly awaitVerdict?: boolean;
  readonly verdictTimeoutMs?: number;
}

const CALLBACK_PATH = '/callback';

export async function startLoopbackReceiver(
  options: LoopbackReceiverOptions = {},
): Promise<LoopbackReceiver> {
  const log = (options.logger ?? silentLogger).child('loopback');
  const appName = options.appName ?? 'Learning Desktop';
  let resolveCallback!: (params: URLSearchParams) => void;
  const callback = new Promise<URLSearchParams>((resolve) => {
    resolveCallback = resolve;
  });
  let received = false;
  let giveVerdict!: (verdict: CallbackVerdict) => void;
  const verdict = new Promise<CallbackVerdict>((resolve) => {
    giveVerdict = resolve;
  });

  // Set once listening: the one Host this receiver answers (the redirect URI's, 127.0.0.1:<port>).
  let authority = '';
  const server = createServer((req, res) => {
    if (req.headers.host !== authority) {
      res.writeHead(421, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      res.end('Misdirected request.');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || received) {
      // Favicon requests, probes and a second callback get nothing useful (and never end the sign-in).
      res.writeHead(404, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      res.end('Not found');
      return;
    }
    const params = url.searchParams;
    let belongs = true;
    try {
      belongs = options.belongs ? options.belongs(params) : true;
    } catch {
      belongs = false;
    }
    if (!belongs) {
      // Not ours (stray, guessed or forged): refuse it and keep waiting for the real redirect or the timeout.
      res.writeHead(400, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        connection: 'close',
      });
      res.end('This is not the answer to the sign-in in progress.');
      log.warn('callback for another sign-in attempt ignored');
      return;
    }
    received = true;
    let kind: CallbackPageKind = 'error';
    try {
      kind = options.classify
        ? options.classify(params)
        : params.has('code')
          ? 'success'
          : params.get('error') === 'access_denied'
            ? 'cancelled'
            : 'error';
    } catch {
      kind = 'error';
    }
    const language = pageLanguage(req.headers['accept-language']);
    const send = (v: CallbackVerdict): void => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // No external assets, no scripts, and the URL (which held the code) is not passed on as a referrer.
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        connection: 'close',
      });
      res.end(renderCallbackPage(v, language, appName));
      void close();
    };
    log.info('callback received', { kind });
    resolveCallback(params);
    if (!options.awaitVerdict) {
      send(
        kind === 'success'
          ? { kind: 'success' }
          : kind === 'cancelled'
            ? { kind: 'cancelled' }
            : { kind: 'failed', reason: 'site' },
      );
      return;
    }
    const timer = setTimeout(
      () => giveVerdict({ kind: 'pending' }),
      options.verdictTimeoutMs ?? 30_000,
    );
    void verdict.then((v) => {
      clearTimeout(timer);
      send(v);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Port 0: the OS picks a free port (RFC 8252 §7.3: the server must accept any port on loopback).
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  authority = `127.0.0.1:${port}`;
  log.debug('listening', { port });

  let closing: Promise<void> | null = null;
  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Let the answer already being written finish, then drop idle keep-alive sockets.
      setImmediate(() => server.closeIdleConnections());
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    });
    return closing;
  }

  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    callback,
    finish: (v) => giveVerdict(v),
    close,
  };
}
