import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SaveOutcome } from '../common/files-and-invites';
import { BROWSER_HOST_PATHS } from '../common/ipc-names';
import type { ExportFile } from '../core/export/service';

/**
 * The browser host's way of giving the student a file: there is no save dialog a web page can open,
 * so the file is kept in memory under an unguessable one-time address and the page downloads it
 * (the browser asks where, or puts it in Downloads as the student set it up). A receipt becomes a
 * print view: the browser's print dialog offers "Save as PDF". Addresses live 10 minutes, behind
 * the host's session cookie like everything else.
 */
const LIFETIME_MS = 10 * 60_000;
const MAX_FILES = 50;
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** The print view's script: a file, because the host's CSP forbids inline script. */
export const PRINT_SCRIPT = `'use strict';\nwindow.addEventListener('load', () => window.print());\n`;

interface Held {
  readonly file: ExportFile;
  readonly expiresAt: number;
}

export interface HostFiles {
  deliver(file: ExportFile): Promise<SaveOutcome>;
  /** Answers GET /__host/files/<token>/<name>; false when the path is not a file address. */
  serve(pathname: string, res: ServerResponse): boolean;
}

export function createHostFiles(clock: { now(): number } = Date): HostFiles {
  const held = new Map<string, Held>();
  const prune = () => {
    const now = clock.now();
    for (const [token, h] of held) if (h.expiresAt <= now) held.delete(token);
    while (held.size > MAX_FILES) held.delete(held.keys().next().value!);
  };
  return {
    async deliver(file) {
      const token = randomBytes(24).toString('base64url');
      held.set(token, { file, expiresAt: clock.now() + LIFETIME_MS });
      prune();
      if (file.kind === 'receipt')
        return {
          kind: 'print-view',
          url: `${BROWSER_HOST_PATHS.files}${token}/${file.fileName.replace(/\.pdf$/, '.html')}`,
        };
      return {
        kind: 'download',
        url: `${BROWSER_HOST_PATHS.files}${token}/${file.fileName}`,
        fileName: file.fileName,
      };
    },
    serve(pathname, res) {
      if (!pathname.startsWith(BROWSER_HOST_PATHS.files)) return false;
      prune();
      const [token = ''] = pathname.slice(BROWSER_HOST_PATHS.files.length).split('/');
      const h = TOKEN.test(token) ? held.get(token) : undefined;
      if (!h) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('This file is no longer available. Ask for it again in the app.');
        return true;
      }
      if (h.file.kind === 'receipt') {
        // The print view: the receipt and the print script, nothing else (no connection, no image,
        // no frame).
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'Content-Security-Policy':
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        });
        res.end(h.file.printView ?? h.file.body);
        return true;
      }
      // A download: attachment, so the browser saves it and never renders it (RFC 6266); names are
      // ASCII by construction.
      res.writeHead(200, {
        'content-type': h.file.mimeType,
        'Content-Disposition': `attachment; filename="${h.file.fileName}"`,
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      res.end(h.file.bytes ? Buffer.from(h.file.bytes) : Buffer.from(h.file.body, 'utf8'));
      return true;
    },
  };
}
