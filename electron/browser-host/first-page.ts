/**
 * The page the browser host sends: the bridge put in without holding the parser, and the first page
 * of a start with the last session's first frame in it (core/desktop/first-screen.ts).
 */
import { readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { BROWSER_HOST_PATHS } from '../common/ipc-names';
import { pageWithFirstScreen, type SavedFirstScreen } from '../core/desktop/first-screen';

/**
 * How long the core waits for the first page to be sent, when there is a first frame to send with
 * it.
 */
export const FIRST_PAGE_WAIT_MS = 300;

/**
 * The bridge defines window.learningDesktop before the app's module script runs: deferred, and
 * before that script (deferred scripts and module scripts run in document order once the document
 * is parsed), so fetching it never holds the parser (and a first frame in the body) while the host
 * is busy opening the core.
 */
export function withBridge(html: string): string {
  const tag = `<script defer src="${BROWSER_HOST_PATHS.bridge}"></script>`;
  const module = html.search(/<script\b[^>]*\btype="module"/i);
  return module < 0
    ? html.replace('</head>', `${tag}</head>`)
    : html.slice(0, module) + tag + html.slice(module);
}

/**
 * The first page with `screen` in it (core/desktop/first-screen.ts), styles inline; null when there
 * is none to send.
 */
export function firstPageWithScreen(
  rendererDir: string,
  screen: SavedFirstScreen | null,
): string | null {
  if (screen === null) return null;
  try {
    const root = normalize(rendererDir);
    const index = readFileSync(join(root, 'index.html'), 'utf8');
    return pageWithFirstScreen(index, screen, (href) => {
      const file = normalize(join(root, href));
      return file.startsWith(root + sep) && file.endsWith('.css')
        ? readFileSync(file, 'utf8')
        : null;
    });
  } catch {
    return null;
  }
}
