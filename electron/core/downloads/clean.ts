/**
 * The download folder at start: only what the manifest vouches for stays (manager.ts runs it
 * before anything else).
 */
import { readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTempFiles } from '../fs/atomic-file';
import { hashKey, MANIFEST, PARTIAL, type DownloadsState } from './state';

export async function cleanDownloads(state: DownloadsState): Promise<void> {
  const { dir, partialDir, log } = state;
  await clean();

  async function clean(): Promise<void> {
    removeStaleTempFiles(dir);
    const keepParts = new Set<string>();
    for (const record of state.records()) {
      if (record.saved) {
        const size = await stat(state.savedPath(record)).then(
          (s) => (s.isFile() ? s.size : -1),
          () => -1,
        );
        if (size !== record.saved.size) {
          log.warn('a saved file was missing or changed on disk; it is no longer shown as saved', {
            productId: record.productId,
          });
          record.saved = null;
        }
      }
      const job = record.job;
      if (job) {
        const partFile = join(partialDir, job.part);
        const size = await stat(partFile).then(
          (s) => s.size,
          () => 0,
        );
        // A partial file resumes only with its validator (RFC 9110 §13.1.5), and from what
        // was made durable.
        if (job.etag === null && job.lastModified === null) job.bytes = 0;
        job.bytes = Math.min(job.bytes, size);
        if (size > job.bytes) await truncate(partFile, job.bytes).catch(() => undefined);
        if (job.bytes > 0) keepParts.add(job.part);
      }
    }
    state.retain((r) => r.saved !== null || r.job !== null);
    for (const name of await readdir(partialDir).catch(() => [] as string[])) {
      if (!keepParts.has(name)) await rm(join(partialDir, name), { force: true, recursive: true });
    }
    // Saved copies: every folder not named by a record is a leftover (a rename whose manifest
    // write never came).
    const keep = new Map<string, Map<string, Set<string>>>();
    for (const r of state.records()) {
      if (!r.saved) continue;
      const s = hashKey('s', r.siteId);
      const p = hashKey('p', r.productId);
      if (!keep.has(s)) keep.set(s, new Map());
      if (!keep.get(s)!.has(p)) keep.get(s)!.set(p, new Set());
      keep.get(s)!.get(p)!.add(r.saved.version);
    }
    for (const s of await readdir(dir).catch(() => [] as string[])) {
      if (s === PARTIAL || s === MANIFEST || !s.startsWith('s-')) {
        if (s !== PARTIAL && s !== MANIFEST && !s.startsWith('.'))
          await rm(join(dir, s), { force: true, recursive: true });
        continue;
      }
      for (const p of await readdir(join(dir, s)).catch(() => [] as string[])) {
        for (const v of await readdir(join(dir, s, p)).catch(() => [] as string[])) {
          if (!keep.get(s)?.get(p)?.has(v))
            await rm(join(dir, s, p, v), { force: true, recursive: true });
        }
        if (!keep.get(s)?.has(p)) await rm(join(dir, s, p), { force: true, recursive: true });
      }
      if (!keep.has(s)) await rm(join(dir, s), { force: true, recursive: true });
    }
    await state.persist();
  }
}
