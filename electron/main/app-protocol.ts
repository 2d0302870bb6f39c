import { protocol } from 'electron';
import { APP_SCHEME, serveAppRequest } from '../core/desktop/app-protocol';

/**
 * Serves the built renderer on app://learning-desktop/ (default session). Which file, which headers and what is
 * refused is decided in electron/core/desktop/app-protocol.ts; this only adapts Electron's Request and Response.
 */
export function handleAppProtocol(rendererDir: string, log: (line: string) => void): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await serveAppRequest(rendererDir, { url: request.url, method: request.method }, (refusal) => log(`app protocol: refused a request (${refusal.status}, ${refusal.reason})`));
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}
