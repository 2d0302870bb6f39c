/**
 * Saved files, opened: `locate` (the file checked again, SHA-256 included, before the app opens it)
 * and `serve` (an app-origin request for it: the inline types only, with byte ranges).
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { SAVED_FILES_PATH, type ViewAs } from '../../common/downloads';
import type { SavedFileAnswer } from './api';
import { inlineMimeType } from './safety';
import type { DownloadsState } from './state';
import type { ProductRecord, SavedRecord } from './store';
import type { TransferThread } from './transfer-thread';

export interface LocatedFile {
  readonly path: string;
  readonly name: string;
  readonly viewAs: ViewAs | null;
  readonly url: string;
}

export interface SavedFilesDeps {
  readonly state: DownloadsState;
  /** Hashes a file off this thread. */
  readonly thread: Pick<TransferThread, 'sha256'>;
}

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

const refuse = (status: SavedFileAnswer['status']): SavedFileAnswer => ({
  status,
  headers: { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  body: null,
});

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => -1,
  );

export class SavedFiles {
  readonly #state: DownloadsState;
  readonly #thread: SavedFilesDeps['thread'];

  constructor(deps: SavedFilesDeps) {
    this.#state = deps.state;
    this.#thread = deps.thread;
  }

  async locate(siteId: string, productId: string): Promise<LocatedFile> {
    const record = this.#state.require(siteId, productId);
    if (!record.saved)
      throw new CoreError('not-found', 'This product is not saved on this computer yet.');
    const path = this.#state.savedPath(record);
    const saved = record.saved;
    const size = await sizeOf(path);
    // Every open reads the whole file again and compares its SHA-256 with the one taken as it
    // arrived (on the transfer thread: this one stays free). A size check alone misses a file
    // altered in place (a disk error, another program, a tool that rewrites it); the byte-range
    // reads that follow (serve) check the size only.
    const intact = size === saved.size && (await this.#thread.sha256(path)) === saved.sha256;
    if (record.saved !== saved)
      throw new CoreError(
        'not-found',
        'The saved file changed while it was being opened. Open it again.',
        { reason: 'missing' },
      );
    if (!intact) await this.#dropAltered(record, saved);
    const url = `${SAVED_FILES_PATH}${encodeURIComponent(siteId)}/${encodeURIComponent(productId)}/${saved.version}/${encodeURIComponent(saved.name)}`;
    return { path, name: saved.name, viewAs: saved.viewAs, url };
  }

  /**
   * Changed or deleted behind the app's back: never opened as if it were the saved copy; offered
   * to save again.
   */
  async #dropAltered(record: ProductRecord, saved: SavedRecord): Promise<never> {
    const state = this.#state;
    const { siteId, productId } = record;
    record.saved = null;
    if (!record.job) state.forget(record);
    await state.persist();
    // The manifest first (as the manager's removal): the altered copy goes once nothing names it.
    await rm(join(state.productDir(record), saved.version), { recursive: true, force: true });
    state.emit(state.find(siteId, productId) ?? null, siteId, productId);
    throw new CoreError(
      'not-found',
      'The saved file is missing or was changed on this computer. Save it again.',
      { reason: 'missing' },
    );
  }

  async serve(
    pathname: string,
    method: string,
    range: string | undefined,
  ): Promise<SavedFileAnswer> {
    if (method !== 'GET' && method !== 'HEAD') return refuse(405);
    const ids = parseSavedPath(pathname);
    if (!ids) return refuse(404);
    const record = this.#state.find(ids.siteId, ids.productId);
    // Served by the manifest's record, never by the path's name: the version must match, the name
    // is not read.
    if (!record?.saved || ids.version !== record.saved.version) return refuse(404);
    const mimeType = inlineMimeType(record.saved.name);
    // Only what opens inside the app is served; anything else is shown in its folder, never handed
    // to the page.
    if (!record.saved.viewAs || !mimeType) return refuse(403);
    const file = this.#state.savedPath(record);
    const size = await sizeOf(file);
    if (size !== record.saved.size) return refuse(404);
    const headers: Record<string, string> = {
      ...BASE_HEADERS,
      'Content-Type': mimeType,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(record.saved.name)}`,
    };
    const part = byteRange(range, size);
    if (part === 'unsatisfiable')
      return {
        status: 416,
        headers: { ...BASE_HEADERS, 'Content-Range': `bytes */${size}` },
        body: null,
      };
    const { start, end } = part ?? { start: 0, end: size - 1 };
    if (part) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    headers['Content-Length'] = String(Math.max(0, end - start + 1));
    return {
      status: part ? 206 : 200,
      headers,
      body: method === 'HEAD' || size === 0 ? null : { file, start, end },
    };
  }
}

/**
 * `/saved-files/<site>/<product>/<version>/<name>`: the ids and version, or null for
 * any other path.
 */
function parseSavedPath(
  pathname: string,
): { siteId: string; productId: string; version: string } | null {
  if (!pathname.startsWith(SAVED_FILES_PATH)) return null;
  const parts = pathname.slice(SAVED_FILES_PATH.length).split('/');
  if (parts.length !== 4) return null;
  try {
    return {
      siteId: decodeURIComponent(parts[0]!),
      productId: decodeURIComponent(parts[1]!),
      version: parts[2]!,
    };
  } catch {
    return null;
  }
}

/**
 * RFC 9110 §14.2: one byte range (the media elements' seeking); several ranges get the whole file
 * (null, as no range at all). A range outside the file is unsatisfiable (416).
 */
function byteRange(
  range: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end = size - 1;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
  } else {
    start = Number(m[1]);
    if (m[2] !== '') end = Math.min(end, Number(m[2]));
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}
