import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { EventName, IpcEvents } from '../common/ipc-contract';
import { BROWSER_HOST_PATHS, EVENT_NAMES } from '../common/ipc-names';
import { SAVED_FILES_PATH } from '../common/downloads';
import type { AppCore } from '../core/app-core';
// Same policy as the Electron window: scripts only from this origin (the bridge included), no inline script.
import { CONTENT_SECURITY_POLICY, MIME_TYPES } from '../core/desktop/app-protocol';
import { CoreError } from '../core/errors';
import type { FileDelivery } from '../core/export/service';
import type { SavedFirstScreen } from '../core/desktop/first-screen';
import { FIRST_PAGE_WAIT_MS, firstPageWithScreen, withBridge } from './first-page';
import type * as IpcDispatch from '../core/ipc-dispatch';
import {
  bridgeScript,
  HELLO_EVENT,
  PAGE_HEADER,
  SESSION_ELEMENT_ID,
  STOPPED_EVENT,
} from './bridge';
import { createHostSessions } from './sessions';
import { FIRST_ANSWER_CHANNELS, FIRST_ANSWERS_WAIT_MS, firstAnswersElement } from './first-answers';
import { createHostFiles, PRINT_SCRIPT } from './files';
import { externalUrl } from '../common/external-url';

/**
 * The second host: runs the same core in plain Node and serves the renderer to a browser over loopback,
 * speaking the IPC contract as HTTP. It is a local web server holding a student's data, so:
 * - it binds 127.0.0.1 only, on an OS-assigned port by default;
 * - a page opens only from a one-time launch link, and the student's data (calls, events, the launch page's first
 *   answers) needs the page key besides the session cookie, which other ports of 127.0.0.1 receive (sessions.ts);
 * - the Host header must name this loopback origin (DNS-rebinding defence) and calls and the event stream must come
 *   from this origin (Origin check, CSRF defence).
 * docs/ARCHITECTURE.md ("Who may reach the browser host") says whom each rule stops.
 */
export interface BrowserHostOptions {
  /** Built renderer (index.html + assets). */
  readonly rendererDir: string;
  readonly port?: number;
  /**
   * Builds the core once the host can offer it a way to open URLs (a new tab in the connected page) and to hand the
   * student a file (a download from this host): pass both on to createAppCore.
   */
  readonly createCore: (deps: {
    openExternal: (url: string) => Promise<void>;
    deliverFile: FileDelivery;
  }) => Promise<AppCore>;
  readonly logger?: (line: string) => void;
  /**
   * Called once the host listens, before the core is open: the page can be opened at once and load its files while
   * the core opens (the offline database, the writer's thread); its calls and event stream wait for the core.
   * `launchUrl` makes a new one-time launch link each time it is called.
   */
  readonly onListening?: (launchUrl: () => string) => void;
  /**
   * The first frame from the last session (core/desktop/first-screen.ts), read before the core opens: the first page
   * this host sends carries it, with its styles inline, and the core starts opening once that page is out (or
   * FIRST_PAGE_WAIT_MS after listening), so nothing of the host's delays the frame.
   */
  readonly firstScreen?: SavedFirstScreen | null;
}

export interface BrowserHost {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** A new launch link: it opens the app once, within LAUNCH_TOKEN_LIFETIME_MS (sessions.ts), and is dead after. */
  launchUrl(): string;
  readonly core: AppCore;
  close(): Promise<void>;
}

type IpcDispatchModule = typeof IpcDispatch;

const MAX_BODY_BYTES = 1024 * 1024;
const PAGE_ID = /^[A-Za-z0-9-]{8,64}$/;
/** The launch link's query parameter: `/?launch=<one-time token>`. */
const LAUNCH_PARAM = 'launch';

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  /** Connected pages (their event streams) by the page id the bridge made up at load. */
  const clients = new Map<ServerResponse, string>();
  /** The page the student used last (its latest invoke): the one that started a sign-in. */
  let activePage: string | null = null;
  const log = options.logger ?? (() => {});

  const send = <E extends EventName>(res: ServerResponse, event: E, payload: IpcEvents[E]) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  const broadcast = <E extends EventName>(event: E, payload: IpcEvents[E]) => {
    for (const res of clients.keys()) send(res, event, payload);
  };

  // "Opening the system browser" becomes opening a new tab in the page that drives the app.
  const openExternal = async (url: string) => {
    // The same rule as everywhere a site's address leaves the app (common/external-url.ts).
    const allowed = externalUrl(url);
    if (allowed === null)
      throw new CoreError(
        'invalid-input',
        'Only https addresses (http on this computer), without a user name or password, can be opened.',
      );
    const parsed = new URL(allowed);
    // The sign-in page opens as a tab of the page that drives the app; with none connected it cannot be shown.
    if (clients.size === 0)
      throw new CoreError(
        'sign-in-failed',
        'The sign-in page could not be opened: open the app’s page (the link printed at start) and try again.',
      );
    // Only one tab opens: in the page the student is using (several pages of the app may be open), else the newest.
    const pages = [...clients];
    const [target] = pages.find(([, page]) => page === activePage) ?? pages[pages.length - 1]!;
    send(target, 'host:open-url', { url: parsed.toString() });
  };

  const files = createHostFiles();
  // The core is set once open; until then the requests that need it wait for `opened` (the page's files do not).
  let core: AppCore | null = null;
  let opened: Promise<AppCore> | null = null;
  // The contract's checks (zod) load with the core, once the host listens: the page's files are served meanwhile.
  let dispatching: Promise<IpcDispatchModule> | null = null;
  let coreTimer: NodeJS.Timeout | undefined;
  let coreStarted!: () => void;
  const started = new Promise<void>((resolve) => (coreStarted = resolve));
  const startCore = (): void => {
    if (opened) return;
    clearTimeout(coreTimer);
    dispatching = import('../core/ipc-dispatch');
    dispatching.catch(() => undefined);
    opened = options.createCore({ openExternal, deliverFile: (file) => files.deliver(file) });
    // Not left unhandled while the caller is told the address: the rejection is the caller's, below.
    opened.catch(() => undefined);
    coreStarted();
  };
  const coreFor = (): Promise<AppCore> => {
    startCore();
    return core ? Promise.resolve(core) : opened!;
  };
  const dispatcher = (): Promise<IpcDispatchModule> => {
    startCore();
    return dispatching!;
  };
  // The first page, with the last session's first frame in it, made before listening (null: none to send).
  let firstPage = firstPageWithScreen(options.rendererDir, options.firstScreen ?? null);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Bad input is the client's mistake, answered like every other refusal.
      if (error instanceof Refusal) {
        if (!res.headersSent) {
          if (error.status === 413) res.setHeader('connection', 'close');
          return plain(res, error.status, error.message);
        }
        return res.end();
      }
      log(`browser-host: request failed: ${error instanceof Error ? error.name : 'error'}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const sessions = createHostSessions(port);
  const launchUrl = () => `${origin}/?${LAUNCH_PARAM}=${sessions.newLaunchToken()}`;

  if (firstPage === null) startCore();
  else coreTimer = setTimeout(startCore, FIRST_PAGE_WAIT_MS);
  options.onListening?.(launchUrl);
  try {
    // Started by now, or by the first page (or the timer) later.
    await started;
    core = await opened!;
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const openCore = core;
  const unsubscribe = openCore.onEvent((event, payload) => broadcast(event, payload));

  /** The checks of a call and of the event stream, one at a time: the method, this origin (CSRF), the page key. */
  function refuseCall(req: IncomingMessage, res: ServerResponse): boolean {
    const refuse = (status: number, text: string): true => {
      plain(res, status, text);
      return true;
    };
    if (req.method !== 'POST') return refuse(405, 'Method not allowed.');
    if (!allowedOrigins.has(req.headers.origin ?? ''))
      return refuse(403, 'Cross-origin request refused.');
    if (!sessions.hasPageKey(req))
      return refuse(403, 'Open the app with the link printed when it started.');
    return false;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    if (!allowedHosts.has(req.headers.host ?? '')) return plain(res, 421, 'Unknown host.');
    const url = new URL(req.url ?? '/', origin);

    if (url.searchParams.has(LAUNCH_PARAM)) {
      if (
        url.pathname !== '/' ||
        req.method !== 'GET' ||
        !sessions.redeem(url.searchParams.get(LAUNCH_PARAM) ?? '')
      )
        return plain(
          res,
          403,
          'This link was used already or has expired. Open the newest link the app printed (press Enter in its window for a new one).',
        );
      return servePage(res, { launch: true });
    }
    if (!sessions.hasCookie(req))
      return plain(res, 403, 'Open the app with the link printed when it started.');

    if (url.pathname.startsWith(BROWSER_HOST_PATHS.invoke)) {
      if (refuseCall(req, res)) return;
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return plain(res, 415, 'JSON only.');
      const body = await readJson(req);
      const page = req.headers[PAGE_HEADER];
      if (typeof page === 'string' && PAGE_ID.test(page)) activePage = page;
      const channel = decodePath(url.pathname.slice(BROWSER_HOST_PATHS.invoke.length));
      const input =
        body !== null && typeof body === 'object' && 'input' in body
          ? (body as { input: unknown }).input
          : undefined;
      const [{ dispatch }, current] = await Promise.all([dispatcher(), coreFor()]);
      const result = await dispatch(current.handlers, channel, input, (c, e) =>
        log(`browser-host: ${c} failed unexpectedly: ${e instanceof Error ? e.name : 'error'}`),
      );
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return res.end(JSON.stringify(result));
    }

    if (url.pathname === BROWSER_HOST_PATHS.events) {
      if (refuseCall(req, res)) return;
      req.resume();
      const current = await coreFor();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
      });
      // First, which host this is: the bridge follows only the host that served its page (bridge.ts).
      res.write(`event: ${HELLO_EVENT}\ndata: ${JSON.stringify({ host: sessions.hostId })}\n\n`);
      // The core announces the network only when it changes: a page that (re)connects is told where it stands now.
      send(res, 'network:changed', { online: current.isOnline() });
      const page = req.headers[PAGE_HEADER];
      clients.set(res, typeof page === 'string' && PAGE_ID.test(page) ? page : '');
      req.on('close', () => clients.delete(res));
      return;
    }

    if (
      url.pathname.startsWith(BROWSER_HOST_PATHS.files) &&
      req.method === 'GET' &&
      files.serve(url.pathname, res)
    )
      return;
    // A saved product file, opened inside the app (PDF, image, audio, video): the same answer as Electron's app://.
    if (url.pathname.startsWith(SAVED_FILES_PATH)) {
      const answer = await (
        await coreFor()
      ).serveSavedFile(url.pathname, req.method ?? 'GET', req.headers.range);
      res.writeHead(answer.status, answer.headers);
      if (!answer.body) return res.end();
      const stream = createReadStream(answer.body.file, {
        start: answer.body.start,
        end: answer.body.end,
      });
      stream.on('error', () => res.destroy());
      return void stream.pipe(res);
    }
    if (url.pathname === BROWSER_HOST_PATHS.print && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return res.end(PRINT_SCRIPT);
    }

    if (url.pathname === BROWSER_HOST_PATHS.bridge && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return res.end(bridgeScript(EVENT_NAMES));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'Method not allowed.');
    return serveStatic(url.pathname, req.method, res);
  }

  /** The first screen's answers as the page's data block (first-answers.ts), or '' when the core is not open in time. */
  async function firstAnswers(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>(
      (resolve) => (timer = setTimeout(() => resolve(null), FIRST_ANSWERS_WAIT_MS)),
    );
    const ready = await Promise.race([
      Promise.all([dispatcher(), coreFor()]).catch(() => null),
      late,
    ]);
    clearTimeout(timer);
    if (ready === null) return '';
    const [{ dispatch }, current] = ready;
    const answers: Record<string, unknown> = {};
    for (const channel of FIRST_ANSWER_CHANNELS)
      answers[channel] = await dispatch(current.handlers, channel, undefined, (c, e) =>
        log(`browser-host: ${c} failed unexpectedly: ${e instanceof Error ? e.name : 'error'}`),
      );
    return firstAnswersElement(answers);
  }

  /**
   * The app's page. Opened from a launch link it sets the session cookie and carries what only the student may see:
   * the page key, the last session's first frame (the first such page only: a reload or a second tab may show
   * another screen, which the frame, Today, would misstate until the app's scripts run) and the first answers. Any
   * other load of the page is the app's bare shell, which asks for everything with the key.
   */
  async function servePage(res: ServerResponse, how: { launch: boolean; method?: string }) {
    const withFrame = how.launch ? firstPage : null;
    if (withFrame !== null) firstPage = null;
    const page = withBridge(
      withFrame ?? (await readFile(join(normalize(options.rendererDir), 'index.html'), 'utf8')),
    );
    const headers: Record<string, string> = {
      'content-type': MIME_TYPES['.html']!,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    };
    if (how.launch) headers['Set-Cookie'] = sessions.setCookie;
    res.writeHead(200, headers);
    const end = page.lastIndexOf('</body>');
    startCore();
    if (how.method === 'HEAD') return res.end();
    if (!how.launch) return res.end(page);
    const key = firstAnswersElement({ key: sessions.pageKey }, SESSION_ELEMENT_ID);
    if (end < 0) return res.end(page + key);
    // Streamed: everything up to the end of the body now, the first answers when the core has them. With a frame,
    // the core starts opening once this part is handed to the system: loading it holds the host's thread, which
    // would otherwise hold the rest of a write larger than the socket's buffer.
    const head = page.slice(0, end) + key;
    if (withFrame === null) res.write(head);
    else await new Promise<void>((resolve) => res.write(head, () => resolve()));
    startCore();
    return res.end((await firstAnswers()) + page.slice(end));
  }

  async function serveStatic(pathname: string, method: string, res: ServerResponse) {
    const root = normalize(options.rendererDir);
    const requested = normalize(join(root, decodePath(pathname)));
    // Single-page app: anything that is not a file under the renderer folder gets index.html.
    const isFile =
      requested.startsWith(root + sep) && existsSync(requested) && statSync(requested).isFile();
    if (!isFile || requested.endsWith('index.html'))
      return servePage(res, { launch: false, method });
    res.writeHead(200, {
      'content-type': MIME_TYPES[extname(requested)] ?? 'application/octet-stream',
    });
    createReadStream(requested).pipe(res);
  }

  return {
    origin,
    launchUrl,
    core: openCore,
    async close() {
      clearTimeout(coreTimer);
      unsubscribe();
      // Open pages are told the app stopped (bridge.ts), instead of waiting for whoever binds the port next.
      for (const res of clients.keys()) res.end(`event: ${STOPPED_EVENT}\ndata: {}\n\n`);
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await openCore.close();
    },
  };
}

function plain(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/** A request refused for what it carries: answered with `status` and the same plain text body as the others. */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** decodeURIComponent, with malformed percent-encoding (RFC 3986 §2.1) refused as 400 instead of a URIError. */
function decodePath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Refusal(400, 'Malformed address.');
  }
}

/** The invoke body, at most MAX_BODY_BYTES; more is refused with 413 (the rest is read and dropped, unbuffered). */
function readJson(req: IncomingMessage): Promise<unknown> {
  const tooLarge = (): Refusal => new Refusal(413, 'Request too large.');
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (refused) return;
      if (size === 0) return resolve(null);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(null);
      }
    });
  });
}
