/**
 * The loopback redirect receiver of a native app (RFC 8252 §7.3): listens on 127.0.0.1 with an
 * OS-assigned port only while one sign-in is in progress, takes exactly one callback at /callback,
 * answers the browser tab with a small self-contained page, and closes. A request that is not the
 * answer to this sign-in (no query, another state) is refused with 400 and the listener stays open:
 * any local process or page that guesses the port could otherwise cancel the member's sign-in (RFC
 * 6749 §10.12, RFC 8252 §8.1). RFC 8252 §8.3: the literal 127.0.0.1 rather than "localhost", so the
 * listener cannot be shadowed by another interface or a hosts-file entry. The Host header must be
 * exactly that address (RFC 9110 §7.4: 421 for a request this server is not the authority for), so
 * a page on another name that resolves to 127.0.0.1 (DNS rebinding) cannot reach it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
   * The app's verdict on the sign-in (after the code exchange and the identity check): the browser
   * tab, held open meanwhile when `awaitVerdict` is set, shows it. Only the first call counts.
   */
  finish(verdict: CallbackVerdict): void;
  /** Stops listening and drops any open connection. Safe to call more than once. */
  close(): Promise<void>;
}

export interface LoopbackReceiverOptions {
  /**
   * Decides which page the browser tab shows for the callback (it runs before the page is
   * sent). The sign-in flow passes its own checks here so that a forged callback never shows
   * "You are signed in".
   */
  readonly classify?: (params: URLSearchParams) => CallbackPageKind;
  /**
   * Whether a callback is the answer to this sign-in (the sign-in flow checks its `state`). One
   * that is not gets 400 and is otherwise ignored. Default: every callback belongs.
   */
  readonly belongs?: (params: URLSearchParams) => boolean;
  readonly logger?: Logger;
  readonly appName?: string;
  /**
   * Hold the tab's page until `finish` gives the verdict (at most `verdictTimeoutMs`, default 30 s,
   * then the page says to return to the app to finish): the page never says "signed in" before the
   * app knows it is.
   */
  readonly awaitVerdict?: boolean;
  readonly verdictTimeoutMs?: number;
}

const CALLBACK_PATH = '/callback';

/** What a receiver is made with (one sign-in's checks and page options). */
export type LoopbackReceiverDeps = LoopbackReceiverOptions;

export async function startLoopbackReceiver(
  options: LoopbackReceiverDeps = {},
): Promise<LoopbackReceiver> {
  const receiver = new CallbackReceiver(options);
  await receiver.listen();
  return receiver;
}

const PLAIN = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/** RFC 9110 §7.4: 421 for a request this server is not the authority for (DNS rebinding). */
function misdirected(res: ServerResponse): void {
  res.writeHead(421, { ...PLAIN, connection: 'close' });
  res.end('Misdirected request.');
}

/**
 * Favicon requests, probes and a second callback get nothing useful (and never end the sign-in).
 */
function notFound(res: ServerResponse): void {
  res.writeHead(404, { ...PLAIN, connection: 'close' });
  res.end('Not found');
}

/**
 * Not ours (stray, guessed or forged): refused, and the receiver keeps waiting (RFC 6749 §10.12).
 */
function notOurs(res: ServerResponse): void {
  res.writeHead(400, { ...PLAIN, 'x-content-type-options': 'nosniff', connection: 'close' });
  res.end('This is not the answer to the sign-in in progress.');
}

/**
 * Which page the callback gets without the app's verdict: its own `code` or `error`
 * (RFC 6749 §4.1.2).
 */
function defaultKind(params: URLSearchParams): CallbackPageKind {
  if (params.has('code')) return 'success';
  return params.get('error') === 'access_denied' ? 'cancelled' : 'error';
}

function verdictOf(kind: CallbackPageKind): CallbackVerdict {
  if (kind === 'success') return { kind: 'success' };
  if (kind === 'cancelled') return { kind: 'cancelled' };
  return { kind: 'failed', reason: 'site' };
}

class CallbackReceiver implements LoopbackReceiver {
  readonly callback: Promise<URLSearchParams>;
  readonly #options: LoopbackReceiverDeps;
  readonly #log: Logger;
  readonly #server: Server;
  readonly #verdict: Promise<CallbackVerdict>;
  #resolveCallback!: (params: URLSearchParams) => void;
  #giveVerdict!: (verdict: CallbackVerdict) => void;
  #received = false;
  /**
   * Set once listening: the one Host this receiver answers (the redirect URI's, 127.0.0.1:<port>).
   */
  #authority = '';
  #port = 0;
  #closing: Promise<void> | null = null;

  constructor(options: LoopbackReceiverDeps) {
    this.#options = options;
    this.#log = (options.logger ?? silentLogger).child('loopback');
    this.callback = new Promise<URLSearchParams>((resolve) => {
      this.#resolveCallback = resolve;
    });
    this.#verdict = new Promise<CallbackVerdict>((resolve) => {
      this.#giveVerdict = resolve;
    });
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  get redirectUri(): string {
    return `http://127.0.0.1:${this.#port}${CALLBACK_PATH}`;
  }

  async listen(): Promise<void> {
    const server = this.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Port 0: the OS picks a free port (RFC 8252 §7.3: the server must accept any
      // port on loopback).
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#authority = `127.0.0.1:${this.#port}`;
    this.#log.debug('listening', { port: this.#port });
  }

  finish(verdict: CallbackVerdict): void {
    this.#giveVerdict(verdict);
  }

  close(): Promise<void> {
    const server = this.#server;
    this.#closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Let the answer already being written finish, then drop idle keep-alive sockets.
      setImmediate(() => server.closeIdleConnections());
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    });
    return this.#closing;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers.host !== this.#authority) return misdirected(res);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || this.#received)
      return notFound(res);
    const params = url.searchParams;
    if (!this.#belongs(params)) {
      notOurs(res);
      this.#log.warn('callback for another sign-in attempt ignored');
      return;
    }
    this.#received = true;
    this.#accept(req, res, params);
  }

  #belongs(params: URLSearchParams): boolean {
    try {
      return this.#options.belongs ? this.#options.belongs(params) : true;
    } catch {
      return false;
    }
  }

  #kind(params: URLSearchParams): CallbackPageKind {
    try {
      return this.#options.classify ? this.#options.classify(params) : defaultKind(params);
    } catch {
      return 'error';
    }
  }

  /**
   * The sign-in's answer: handed to the flow, and the tab's page sent now or once the
   * verdict is known.
   */
  #accept(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): void {
    const kind = this.#kind(params);
    const language = pageLanguage(req.headers['accept-language']);
    const send = (v: CallbackVerdict): void => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // No external assets, no scripts, and the URL (which held the code) is not passed on
        // as a referrer.
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        connection: 'close',
      });
      res.end(renderCallbackPage(v, language, this.#options.appName ?? 'Learning Desktop'));
      void this.close();
    };
    this.#log.info('callback received', { kind });
    this.#resolveCallback(params);
    if (!this.#options.awaitVerdict) return send(verdictOf(kind));
    const timer = setTimeout(
      () => this.#giveVerdict({ kind: 'pending' }),
      this.#options.verdictTimeoutMs ?? 30_000,
    );
    void this.#verdict.then((v) => {
      clearTimeout(timer);
      send(v);
    });
  }
}
