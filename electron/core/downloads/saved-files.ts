/**
 * Saved files, opened: `locate` (the file checked again, SHA-256 included, before the app opens it) and `serve`
 * (an app-origin request for it: the inline types only, with byte ranges).
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { SAVED_FILES_PATH, type ViewAs } from '../../common/downloads';
import type { SavedFileAnswer } from './api';
import { findRecord, productDirOf, savedPathOf, type DownloadsContext } from './context';
import { inlineMimeType } from './safety';
import type { ProductRecord } from './store';

export interface SavedFiles {
  locate(
    siteId: string,
    productId: string,
  ): Promise<{
    readonly path: string;
    readonly name: string;
    readonly viewAs: ViewAs | null;
    readonly url: string;
  }>;
  serve(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer>;
}

export function createSavedFiles(
  ctx: DownloadsContext,
  requireRecord: (siteId: string, productId: string) => ProductRecord,
): SavedFiles {
  const { manifest, persist, emit, thread } = ctx;
  const find = (siteId: string, productId: string) => findRecord(ctx, siteId, productId);
  const productDir = (r: { siteId: string; productId: string }) => productDirOf(ctx, r);
  const savedPath = (r: ProductRecord) => savedPathOf(ctx, r);

  async function locate(siteId: string, productId: string) {
    const record = requireRecord(siteId, productId);
    if (!record.saved)
      throw new CoreError('not-found', 'This product is not saved on this computer yet.');
    const path = savedPath(record);
    const saved = record.saved;
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    // Every open reads the whole file again and compares its SHA-256 with the one taken as it arrived (on the transfer
    // thread: this one stays free). A size check alone misses a file altered in place (a disk error, another program,
    // a tool that rewrites it); the byte-range reads that follow (serve) check the size only.
    const intact = size === saved.size && (await thread.sha256(path)) === saved.sha256;
    if (record.saved !== saved)
      throw new CoreError(
        'not-found',
        'The saved file changed while it was being opened. Open it again.',
        { reason: 'missing' },
      );
    if (!intact) {
      // Changed or deleted behind the app's back: never opened as if it were the saved copy; offered to save again.
      record.saved = null;
      if (!record.job) manifest.products = manifest.products.filter((r) => r !== record);
      await persist();
      // The manifest first (as removeRecord): the altered copy goes once nothing names it.
      await rm(join(productDir(record), saved.version), { recursive: true, force: true });
      emit(find(siteId, productId) ?? null, siteId, productId);
      throw new CoreError(
        'not-found',
        'The saved file is missing or was changed on this computer. Save it again.',
        { reason: 'missing' },
      );
    }
    const url = `${SAVED_FILES_PATH}${encodeURIComponent(siteId)}/${encodeURIComponent(productId)}/${saved.version}/${encodeURIComponent(saved.name)}`;
    return { path, name: saved.name, viewAs: saved.viewAs, url };
  }

  async function serve(
    pathname: string,
    method: string,
    range: string | undefined,
  ): Promise<SavedFileAnswer> {
    const base = {
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    const refuse = (status: SavedFileAnswer['status']): SavedFileAnswer => ({
      status,
      headers: { ...base, 'Content-Type': 'text/plain; charset=utf-8' },
      body: null,
    });
    if (method !== 'GET' && method !== 'HEAD') return refuse(405);
    if (!pathname.startsWith(SAVED_FILES_PATH)) return refuse(404);
    const parts = pathname.slice(SAVED_FILES_PATH.length).split('/');
    if (parts.length !== 4) return refuse(404);
    let siteId: string, productId: string;
    try {
      [siteId, productId] = [decodeURIComponent(parts[0]!), decodeURIComponent(parts[1]!)];
    } catch {
      return refuse(404);
    }
    const record = find(siteId, productId);
    // Served by the manifest's record, never by the path's name: the version must match, the name is not read.
    if (!record?.saved || parts[2] !== record.saved.version) return refuse(404);
    const mimeType = inlineMimeType(record.saved.name);
    // Only what opens inside the app is served; anything else is shown in its folder, never handed to the page.
    if (!record.saved.viewAs || !mimeType) return refuse(403);
    const file = savedPath(record);
    const size = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (size !== record.saved.size) return refuse(404);
    const headers: Record<string, string> = {
      ...base,
      'Content-Type': mimeType,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(record.saved.name)}`,
    };
    let start = 0;
    let end = size - 1;
    let status: 200 | 206 = 200;
    // RFC 9110 §14.2: one byte range (the media elements' seeking); several ranges get the whole file.
    const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
    if (m && (m[1] !== '' || m[2] !== '')) {
      if (m[1] === '') {
        start = Math.max(0, size - Number(m[2]));
      } else {
        start = Number(m[1]);
        if (m[2] !== '') end = Math.min(end, Number(m[2]));
      }
      if (start > end || start >= size)
        return {
          status: 416,
          headers: { ...base, 'Content-Range': `bytes */${size}` },
          body: null,
        };
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = String(Math.max(0, end - start + 1));
    return {
      status,
      headers,
      body: method === 'HEAD' || size === 0 ? null : { file, start, end },
    };
  }

  return { locate, serve };
}
