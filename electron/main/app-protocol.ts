import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { SAVED_FILES_PATH } from '../common/downloads';
import type { AppCore } from '../core/app-core';
import {
  APP_INDEX_URL,
  APP_SCHEME,
  firstPageResponse,
  isAppUrl,
  serveAppRequest,
} from '../core/desktop/app-protocol';
import type { SavedFirstScreen } from '../core/desktop/first-screen';

/**
 * Serves the built renderer on app://learning-desktop/ (default session). Which file, which headers
 * and what is refused is decided in electron/core/desktop/app-protocol.ts; this only adapts
 * Electron's Request and Response. Saved product files (`/saved-files/...`) are answered by the
 * core's download manager (never file://).
 */
export function handleAppProtocol(
  rendererDir: string,
  log: (line: string) => void,
  core: () => AppCore | null,
  firstScreen: SavedFirstScreen | null = null,
): void {
  // The last session's first frame (core/desktop/first-screen.ts), for the window's first page
  // only.
  let frame = firstScreen;
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (frame !== null && request.method === 'GET' && url.href === APP_INDEX_URL) {
      const screen = frame;
      frame = null;
      const first = await firstPageResponse(rendererDir, screen);
      if (first) return new Response(first.body, { status: first.status, headers: first.headers });
    }
    const current = core();
    if (isAppUrl(url) && url.pathname.startsWith(SAVED_FILES_PATH) && current) {
      const answer = await current.serveSavedFile(
        url.pathname,
        request.method,
        request.headers.get('range') ?? undefined,
      );
      const body = answer.body
        ? (Readable.toWeb(
            createReadStream(answer.body.file, { start: answer.body.start, end: answer.body.end }),
          ) as ReadableStream<Uint8Array>)
        : null;
      return new Response(body, { status: answer.status, headers: answer.headers });
    }
    const answer = await serveAppRequest(
      rendererDir,
      { url: request.url, method: request.method },
      (refusal) => log(`app protocol: refused a request (${refusal.status}, ${refusal.reason})`),
    );
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}
