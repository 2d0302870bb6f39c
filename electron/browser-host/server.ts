import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { BROWSER_HOST_PATHS, EVENT_NAMES } from '../common/ipc-names';
import { SAVED_FILES_PATH } from '../common/downloads';
import type { AppCore } from '../core/app-core';
// Same policy as the Electron window: scripts only from this origin (the bridge included),
// no inline script.
import { CONTENT_SECURITY_POLICY, MIME_TYPES } from '../core/desktop/app-protocol';
import type { SavedFirstScreen } from '../core/desktop/first-screen';
import { FIRST_PAGE_WAIT_MS, firstPageWithScreen, withBridge } from './first-page';
import { bridgeScript, HELLO_EVENT, PAGE_HEADER, SESSION_ELEMENT_ID } from './bridge';
import { CoreOpener, type CreateCore } from './core-opener';
import { PageClients, sendEvent } from './page-clients';
import { createHostSessions, type HostSessions } from './sessions';
import { FIRST_ANSWER_CHANNELS, FIRST_ANSWERS_WAIT_MS, firstAnswersElement } from './first-answers';
import { createHostFiles, PRINT_SCRIPT, type HostFiles } from './files';

/**
 * The second host: runs the same core in plain Node and serves the renderer to a browser
 * over loopback, speaking the IPC contract as HTTP. It is a local web server holding a
 * student's data, so:
 * - it binds 127.0.0.1 only, on an OS-assigned port by default;
 * - a page opens only from a one-time launch link, and the student's data (calls, events, the
 *   launch page's first answers) needs the page key besides the session cookie, which other ports
 *   of 127.0.0.1 receive (sessions.ts);
 * - the Host header must name this loopback origin (DNS-rebinding defence) and calls and the event
 *   stream must come from this origin (Origin check, CSRF defence). docs/ARCHITECTURE.md ("Who may
 *   reach the browser host") says whom each rule stops.
 */
export interface BrowserHostOptions {
  /** Built renderer (index.html + assets). */
  readonly rendererDir: string;
  readonly port?: number;
  /**
   * Builds the core once the host can offer it a way to open URLs (a new tab in the connected page)
   * and to hand the student a file (a download from this host): pass both on to createAppCore.
   */
  readonly createCore: CreateCore;
  readonly logger?: (line: string) => void;
  /**
   * Called once the host listens, before the core is open: the page can be opened at once and load
   * its files while the core opens (the offline database, the writer's thread); its calls and event
   * stream wait for the core. `launchUrl` makes a new one-time launch link each time it is called.
   */
  readonly onListening?: (launchUrl: () => string) => void;
  /**
   * The first frame from the last session (core/desktop/first-screen.ts), read before the core
   * opens: the first page this host sends carries it, with its styles inline, and the core starts
   * opening once that page is out (or FIRST_PAGE_WAIT_MS after listening), so nothing of the host's
   * delays the frame.
   */
  readonly firstScreen?: SavedFirstScreen | null;
}

export interface BrowserHost {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /**
   * A new launch link: it opens the app once, within LAUNCH_TOKEN_LIFETIME_MS (sessions.ts), and
   * is dead after.
   */
  launchUrl(): string;
  readonly core: AppCore;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const PAGE_ID = /^[A-Za-z0-9-]{8,64}$/;
/** The launch link's query parameter: `/?launch=<one-time token>`. */
const LAUNCH_PARAM = 'launch';

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const log = options.logger ?? (() => {});
  const clients = new PageClients();
  const files = createHostFiles();
  const opener = new CoreOpener({
    createCore: options.createCore,
    openExternal: (url) => clients.openExternal(url),
    deliverFile: (file) => files.deliver(file),
  });
  // The first page, with the last session's first frame in it, made before listening (null:
  // none to send).
  const firstPage = firstPageWithScreen(options.rendererDir, options.firstScreen ?? null);
  let routes: HostRoutes | null = null;
  const server = createServer((req, res) => {
    routes!.handle(req, res).catch((error: unknown) => answerFailure(res, error, log));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const sessions = createHostSessions(port);
  routes = new HostRoutes({
    rendererDir: options.rendererDir,
    port,
    sessions,
    files,
    clients,
    opener,
    firstPage,
    log,
  });
  const launchUrl = () => `${origin}/?${LAUNCH_PARAM}=${sessions.newLaunchToken()}`;

  if (firstPage === null) opener.start();
  else opener.startAfter(FIRST_PAGE_WAIT_MS);
  options.onListening?.(launchUrl);
  let core: AppCore;
  try {
    core = await opener.open();
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const unsubscribe = core.onEvent((event, payload) => clients.broadcast(event, payload));
  return {
    origin,
    launchUrl,
    core,
    async close() {
      opener.cancelTimer();
      unsubscribe();
      clients.stopAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await core.close();
    },
  };
}

/**
 * A request that threw: a refusal answered as one, anything else a 500 (its name logged,
 * never its text).
 */
function answerFailure(res: ServerResponse, error: unknown, log: (line: string) => void): void {
  // Bad input is the client's mistake, answered like every other refusal.
  if (error instanceof Refusal) {
    if (!res.headersSent) {
      if (error.status === 413) res.setHeader('connection', 'close');
      return plain(res, error.status, error.message);
    }
    return void res.end();
  }
  log(`browser-host: request failed: ${error instanceof Error ? error.name : 'error'}`);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal error');
}

interface HostRoutesDeps {
  readonly rendererDir: string;
  readonly port: number;
  readonly sessions: HostSessions;
  readonly files: HostFiles;
  readonly clients: PageClients;
  readonly opener: CoreOpener;
  /** The first page with the last session's first frame (null: none, or sent already). */
  readonly firstPage: string | null;
  readonly log: (line: string) => void;
}

/** The host's answers, one method per kind of request, behind the checks of who may ask. */
class HostRoutes {
  readonly #deps: HostRoutesDeps;
  readonly #origin: string;
  readonly #allowedHosts: ReadonlySet<string>;
  readonly #allowedOrigins: ReadonlySet<string>;
  #firstPage: string | null;

  constructor(deps: HostRoutesDeps) {
    this.#deps = deps;
    const { port } = deps;
    this.#origin = `http://127.0.0.1:${port}`;
    this.#allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.#allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    this.#firstPage = deps.firstPage;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { sessions } = this.#deps;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    if (!this.#allowedHosts.has(req.headers.host ?? '')) return plain(res, 421, 'Unknown host.');
    const url = new URL(req.url ?? '/', this.#origin);
    if (url.searchParams.has(LAUNCH_PARAM)) return this.#launch(req, res, url);
    if (!sessions.hasCookie(req))
      return plain(res, 403, 'Open the app with the link printed when it started.');
    const { pathname } = url;
    if (pathname.startsWith(BROWSER_HOST_PATHS.invoke)) return this.#invoke(req, res, pathname);
    if (pathname === BROWSER_HOST_PATHS.events) return this.#events(req, res);
    if (
      pathname.startsWith(BROWSER_HOST_PATHS.files) &&
      req.method === 'GET' &&
      this.#deps.files.serve(pathname, res)
    )
      return;
    if (pathname.startsWith(SAVED_FILES_PATH)) return this.#savedFile(req, res, pathname);
    if (pathname === BROWSER_HOST_PATHS.print && req.method === 'GET')
      return script(res, PRINT_SCRIPT);
    if (pathname === BROWSER_HOST_PATHS.bridge && req.method === 'GET')
      return script(res, bridgeScript(EVENT_NAMES));
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'Method not allowed.');
    return this.#serveStatic(pathname, req.method, res);
  }

  /**
   * The checks of a call and of the event stream, one at a time: the method, this origin (CSRF),
   * the page key.
   */
  #refuseCall(req: IncomingMessage, res: ServerResponse): boolean {
    const refuse = (status: number, text: string): true => {
      plain(res, status, text);
      return true;
    };
    if (req.method !== 'POST') return refuse(405, 'Method not allowed.');
    if (!this.#allowedOrigins.has(req.headers.origin ?? ''))
      return refuse(403, 'Cross-origin request refused.');
    if (!this.#deps.sessions.hasPageKey(req))
      return refuse(403, 'Open the app with the link printed when it started.');
    return false;
  }

  /** A one-time launch link: the page with its session, once; a used or expired one is refused. */
  #launch(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | void {
    if (
      url.pathname !== '/' ||
      req.method !== 'GET' ||
      !this.#deps.sessions.redeem(url.searchParams.get(LAUNCH_PARAM) ?? '')
    )
      return plain(
        res,
        403,
        'This link was used already or has expired. Open the newest link the app printed (press Enter in its window for a new one).',
      );
    return this.#servePage(res, { launch: true });
  }

  /** A call of the IPC contract: JSON in, the core's Result out. */
  async #invoke(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (this.#refuseCall(req, res)) return;
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return plain(res, 415, 'JSON only.');
    const body = await readJson(req);
    const page = req.headers[PAGE_HEADER];
    if (typeof page === 'string' && PAGE_ID.test(page)) this.#deps.clients.setActive(page);
    const channel = decodePath(pathname.slice(BROWSER_HOST_PATHS.invoke.length));
    const input =
      body !== null && typeof body === 'object' && 'input' in body
        ? (body as { input: unknown }).input
        : undefined;
    const { opener } = this.#deps;
    const [{ dispatch }, current] = await Promise.all([opener.dispatcher(), opener.core()]);
    const result = await dispatch(current.handlers, channel, input, (c, e) => this.#failed(c, e));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(result));
  }

  #failed(channel: string, error: unknown): void {
    this.#deps.log(
      `browser-host: ${channel} failed unexpectedly: ${error instanceof Error ? error.name : 'error'}`,
    );
  }

  /**
   * The event stream of a page: which host this is, where the network stands, then
   * the core's events.
   */
  async #events(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.#refuseCall(req, res)) return;
    req.resume();
    const current = await this.#deps.opener.core();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    // First, which host this is: the bridge follows only the host that served its page (bridge.ts).
    res.write(
      `event: ${HELLO_EVENT}\ndata: ${JSON.stringify({ host: this.#deps.sessions.hostId })}\n\n`,
    );
    // The core announces the network only when it changes: a page that (re)connects is told where
    // it stands now.
    sendEvent(res, 'network:changed', { online: current.isOnline() });
    const page = req.headers[PAGE_HEADER];
    this.#deps.clients.connect(res, typeof page === 'string' && PAGE_ID.test(page) ? page : '');
    req.on('close', () => this.#deps.clients.disconnect(res));
  }

  /**
   * A saved product file, opened inside the app (PDF, image, audio, video): the same answer
   * as Electron's app://.
   */
  async #savedFile(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const core = await this.#deps.opener.core();
    const answer = await core.serveSavedFile(pathname, req.method ?? 'GET', req.headers.range);
    res.writeHead(answer.status, answer.headers);
    if (!answer.body) return void res.end();
    const stream = createReadStream(answer.body.file, {
      start: answer.body.start,
      end: answer.body.end,
    });
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  /**
   * The first screen's answers as the page's data block (first-answers.ts), or '' when the core is
   * not open in time.
   */
  async #firstAnswers(): Promise<string> {
    const { opener } = this.#deps;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>(
      (resolve) => (timer = setTimeout(() => resolve(null), FIRST_ANSWERS_WAIT_MS)),
    );
    const ready = await Promise.race([
      Promise.all([opener.dispatcher(), opener.core()]).catch(() => null),
      late,
    ]);
    clearTimeout(timer);
    if (ready === null) return '';
    const [{ dispatch }, current] = ready;
    const answers: Record<string, unknown> = {};
    for (const channel of FIRST_ANSWER_CHANNELS)
      answers[channel] = await dispatch(current.handlers, channel, undefined, (c, e) =>
        this.#failed(c, e),
      );
    return firstAnswersElement(answers);
  }

  /**
   * The app's page. Opened from a launch link it sets the session cookie and carries what only the
   * student may see: the page key, the last session's first frame (the first such page only: a
   * reload or a second tab may show another screen, which the frame, Today, would misstate until
   * the app's scripts run) and the first answers. Any other load of the page is the app's bare
   * shell, which asks for everything with the key.
   */
  async #servePage(res: ServerResponse, how: { launch: boolean; method?: string }): Promise<void> {
    const { sessions, opener } = this.#deps;
    const withFrame = how.launch ? this.#firstPage : null;
    if (withFrame !== null) this.#firstPage = null;
    const page = withBridge(
      withFrame ?? (await readFile(join(normalize(this.#deps.rendererDir), 'index.html'), 'utf8')),
    );
    const headers: Record<string, string> = {
      'content-type': MIME_TYPES['.html']!,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    };
    if (how.launch) headers['Set-Cookie'] = sessions.setCookie;
    res.writeHead(200, headers);
    const end = page.lastIndexOf('</body>');
    opener.start();
    if (how.method === 'HEAD') return void res.end();
    if (!how.launch) return void res.end(page);
    const key = firstAnswersElement({ key: sessions.pageKey }, SESSION_ELEMENT_ID);
    if (end < 0) return void res.end(page + key);
    // Streamed: everything up to the end of the body now, the first answers when the core has
    // them. With a frame, the core starts opening once this part is handed to the system:
    // loading it holds the host's thread, which would otherwise hold the rest of a write larger
    // than the socket's buffer.
    const head = page.slice(0, end) + key;
    if (withFrame === null) res.write(head);
    else await new Promise<void>((resolve) => res.write(head, () => resolve()));
    opener.start();
    res.end((await this.#firstAnswers()) + page.slice(end));
  }

  async #serveStatic(pathname: string, method: string, res: ServerResponse): Promise<void> {
    const root = normalize(this.#deps.rendererDir);
    const requested = normalize(join(root, decodePath(pathname)));
    // Single-page app: anything that is not a file under the renderer folder gets index.html.
    const isFile =
      requested.startsWith(root + sep) && existsSync(requested) && statSync(requested).isFile();
    if (!isFile || requested.endsWith('index.html'))
      return this.#servePage(res, { launch: false, method });
    res.writeHead(200, {
      'content-type': MIME_TYPES[extname(requested)] ?? 'application/octet-stream',
    });
    createReadStream(requested).pipe(res);
  }
}

function script(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
  res.end(text);
}

function plain(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/**
 * A request refused for what it carries: answered with `status` and the same plain text body
 * as the others.
 */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * decodeURIComponent, with malformed percent-encoding (RFC 3986 §2.1) refused as 400 instead
 * of a URIError.
 */
function decodePath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Refusal(400, 'Malformed address.');
  }
}

/**
 * The invoke body, at most MAX_BODY_BYTES; more is refused with 413 (the rest is read
 * and dropped, unbuffered).
 */
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
