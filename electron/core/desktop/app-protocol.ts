/**
 * The window's own origin: the built renderer is served from `app://learning-desktop/`, never from
 * file:// (Electron security checklist #18, "avoid file://, prefer custom protocols"; the
 * GrantFileProtocolExtraPrivileges fuse is off). electron/main registers the scheme and hands every
 * request to `serveAppRequest`; everything it decides (which file, which type, which headers, what
 * it refuses) is here and tested in plain Node.
 */
import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, join, posix, resolve, sep } from 'node:path';
import { pageWithFirstScreen, type SavedFirstScreen } from './first-screen';

export const APP_SCHEME = 'app';
const APP_HOST = 'learning-desktop';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window loads, and the only top frame whose IPC messages are answered. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * What `protocol.registerSchemesAsPrivileged` gets (electron.d.ts CustomScheme): `standard` so
 * relative URLs and the origin work like https (the bundle's `./assets/…`), `secure` so the page is
 * a secure context, `supportFetchAPI` for fetch of the page's own files, `codeCache` so V8 keeps
 * the compiled scripts between launches (Chromium does it for http(s) only; a standard custom
 * scheme needs this, Electron 28+): a start after the first then skips compiling the window's ~600
 * kB of JavaScript. `stream` because a saved product's audio or video plays from this scheme:
 * Electron's docs ("protocol.registerSchemesAsPrivileged") require it for <video> and <audio> over
 * a custom protocol, whose seeking asks for byte ranges (206). No `bypassCSP`, no `corsEnabled`, no
 * `allowServiceWorkers`.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
  stream: true,
} as const;

/**
 * True for the app's own URLs: scheme app: and host learning-desktop. Never
 * `url.origin === APP_ORIGIN`: the URL Standard gives a URL of a non-special scheme an opaque
 * origin, serialised as "null" (URL Standard §4 "origin"; Node's URL and Chromium's alike), so that
 * comparison is false for every app:// URL.
 */
export function isAppUrl(url: URL): boolean {
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
}

/**
 * The page's policy, sent as a header on every answer (checklist #7). Same as renderer/index.html's
 * meta tag plus what only a header can say (frame-ancestors; form-action is honoured either way).
 * Pictures come from the app or as data: URLs the core fetched (core/net/site-image.ts): never from
 * an address a site chose.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The file types a Vite build of the renderer holds. Anything else is not ours to serve. */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

export interface AppResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** null for HEAD and for refusals with no body. */
  readonly body: Buffer | null;
}

/** Why a request gets no file. The reason is for the log; the page only sees the status. */
export type Refusal = { readonly status: 400 | 403 | 404 | 405; readonly reason: string };

/**
 * Headers on every answer, file or refusal: the CSP, no MIME sniffing, and no caching of a build
 * that updates.
 */
function baseHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

/**
 * Which file under `rootDir` a URL names, or why none. Pure path logic, one rule at a time:
 * scheme and host are ours; GET or HEAD; the path decodes; no `..`, backslash, NUL or drive letter
 * in any segment (checked after decoding, so `%2e%2e` and `%5c` are refused too); the result stays
 * under the root; a known type.
 */
export function resolveAppRequest(
  rootDir: string,
  url: string,
  method = 'GET',
): { readonly file: string; readonly mimeType: string } | Refusal {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400, reason: 'not a URL' };
  }
  if (parsed.protocol !== `${APP_SCHEME}:`)
    return { status: 403, reason: `scheme ${parsed.protocol}` };
  if (parsed.host !== APP_HOST) return { status: 403, reason: `host ${parsed.host}` };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, reason: `method ${method}` };
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return { status: 400, reason: 'path does not decode' };
  }
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const segments = pathname.split('/').slice(1);
  for (const segment of segments) {
    if (
      segment === '..' ||
      segment === '.' ||
      segment.includes('\\') ||
      segment.includes('\0') ||
      /^[a-z]:/i.test(segment)
    ) {
      return { status: 403, reason: 'path leaves the renderer folder' };
    }
    // A hidden file (.env, .git) is never part of the build.
    if (segment.startsWith('.') || segment === '') return { status: 404, reason: 'no such file' };
  }
  const root = resolve(rootDir);
  const file = resolve(root, ...posix.normalize(pathname).split('/').filter(Boolean));
  if (!file.startsWith(root + sep))
    return { status: 403, reason: 'path leaves the renderer folder' };
  const mimeType = MIME_TYPES[extname(file).toLowerCase()];
  if (!mimeType) return { status: 404, reason: 'not a renderer file type' };
  return { file, mimeType };
}

function refuse(status: Refusal['status']): AppResponse {
  return {
    status,
    headers: { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8' },
    body: null,
  };
}

/**
 * Answers one request of the window. The file's real path (symlinks followed) must still be under
 * the root's real path, so a link inside the build cannot reach the rest of the disk. `onRefused`
 * hears why (never the page).
 */
export async function serveAppRequest(
  rootDir: string,
  request: { readonly url: string; readonly method?: string },
  onRefused: (refusal: Refusal, url: string) => void = () => {},
): Promise<AppResponse> {
  const resolved = resolveAppRequest(rootDir, request.url, request.method ?? 'GET');
  if ('status' in resolved) {
    onRefused(resolved, request.url);
    return refuse(resolved.status);
  }
  let body: Buffer;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(rootDir), realpath(resolved.file)]);
    if (!realFile.startsWith(realRoot + sep)) {
      onRefused({ status: 403, reason: 'a link leads out of the renderer folder' }, request.url);
      return refuse(403);
    }
    if (!(await stat(realFile)).isFile())
      throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    body = await readFile(realFile);
  } catch {
    onRefused({ status: 404, reason: 'no such file' }, request.url);
    return refuse(404);
  }
  return {
    status: 200,
    headers: {
      ...baseHeaders(),
      'Content-Type': resolved.mimeType,
      'Content-Length': String(body.length),
    },
    body: request.method === 'HEAD' ? null : body,
  };
}

/**
 * The window's first page with the last session's first frame in it (first-screen.ts), or null to
 * serve index.html as it is (no frame, another build, no #root). Only for the window's first load:
 * a reload may be on another screen.
 */
export async function firstPageResponse(
  rootDir: string,
  screen: SavedFirstScreen,
): Promise<AppResponse | null> {
  let index: string;
  try {
    index = await readFile(join(resolve(rootDir), 'index.html'), 'utf8');
  } catch {
    return null;
  }
  const page = pageWithFirstScreen(index, screen);
  if (page === null) return null;
  const body = Buffer.from(page, 'utf8');
  return {
    status: 200,
    headers: {
      ...baseHeaders(),
      'Content-Type': MIME_TYPES['.html']!,
      'Content-Length': String(body.length),
    },
    body,
  };
}
