/**
 * Covers and avatars of https schools kept on disk beside the offline copy, so a course card shows
 * its picture offline after a restart (the memory cache, net/site-image.ts, starts empty at every
 * launch). One folder per site, one file per picture (named by the SHA-256 of its address, holding
 * the data: URL the screens take), bounded in count and bytes with the least recently used going
 * first, and removed with the site (keepOnly).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ImageDiskCacheDeps {
  readonly dir: string;
  readonly maxBytes?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface Entry {
  readonly site: string;
  readonly file: string;
  bytes: number;
  used: number;
}

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

export class ImageDiskCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Built from the folder at the first use: file path -> entry. */
  #index: Map<string, Entry> | null = null;
  #bytes = 0;

  constructor(deps: ImageDiskCacheDeps) {
    this.#dir = deps.dir;
    this.#maxBytes = deps.maxBytes ?? 64 * 1024 * 1024;
    this.#maxEntries = deps.maxEntries ?? 2000;
    this.#now = deps.now ?? Date.now;
  }

  /** Only https pictures are kept: a loopback school's (the demo's) are its own, always at hand. */
  static keeps(url: string): boolean {
    return url.startsWith('https://');
  }

  #path(siteId: string, url: string): { site: string; file: string } {
    const site = hash(siteId).slice(0, 32);
    return { site, file: join(this.#dir, site, hash(url)) };
  }

  async #load(): Promise<Map<string, Entry>> {
    if (this.#index) return this.#index;
    const index = new Map<string, Entry>();
    for (const site of await readdir(this.#dir).catch(() => [] as string[]))
      for (const name of await readdir(join(this.#dir, site)).catch(() => [] as string[])) {
        const file = join(this.#dir, site, name);
        const s = await stat(file).catch(() => null);
        if (s?.isFile()) index.set(file, { site, file, bytes: s.size, used: s.mtimeMs });
      }
    this.#index = index;
    this.#bytes = [...index.values()].reduce((n, e) => n + e.bytes, 0);
    return index;
  }

  async get(siteId: string, url: string): Promise<string | null> {
    if (!ImageDiskCache.keeps(url)) return null;
    const index = await this.#load();
    const { file } = this.#path(siteId, url);
    const entry = index.get(file);
    if (!entry) return null;
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null || !text.startsWith('data:image/')) {
      await this.#drop(entry);
      return null;
    }
    entry.used = this.#now();
    await utimes(file, entry.used / 1000, entry.used / 1000).catch(() => undefined);
    return text;
  }

  async put(siteId: string, url: string, dataUrl: string): Promise<void> {
    if (!ImageDiskCache.keeps(url) || !dataUrl.startsWith('data:image/')) return;
    const index = await this.#load();
    const { site, file } = this.#path(siteId, url);
    const bytes = Buffer.byteLength(dataUrl);
    if (bytes > this.#maxBytes) return;
    await mkdir(join(this.#dir, site), { recursive: true, mode: 0o700 });
    await writeFile(file, dataUrl, { mode: 0o600 });
    const old = index.get(file);
    if (old) this.#bytes -= old.bytes;
    index.set(file, { site, file, bytes, used: this.#now() });
    this.#bytes += bytes;
    await this.#evict();
  }

  async #drop(entry: Entry): Promise<void> {
    this.#index?.delete(entry.file);
    this.#bytes -= entry.bytes;
    await rm(entry.file, { force: true });
  }

  async #evict(): Promise<void> {
    const index = this.#index!;
    if (index.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) return;
    const oldest = [...index.values()].sort((a, b) => a.used - b.used);
    for (const e of oldest) {
      if (index.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      await this.#drop(e);
    }
  }

  /** The pictures of sites no longer in the app go with them. */
  async keepOnly(siteIds: readonly string[]): Promise<void> {
    const index = await this.#load();
    const keep = new Set(siteIds.map((id) => hash(id).slice(0, 32)));
    for (const site of await readdir(this.#dir).catch(() => [] as string[]))
      if (!keep.has(site)) {
        await rm(join(this.#dir, site), { recursive: true, force: true });
        for (const e of [...index.values()])
          if (e.site === site) {
            index.delete(e.file);
            this.#bytes -= e.bytes;
          }
      }
  }

  /** Entries and bytes held (Settings > Storage may show them; tests check the bounds). */
  async size(): Promise<{ entries: number; bytes: number }> {
    const index = await this.#load();
    return { entries: index.size, bytes: this.#bytes };
  }
}
