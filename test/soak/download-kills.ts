/**
 * Soak (f): kill -9 of a child while it downloads product files (electron/core/downloads). Three
 * files of 2 MiB are served slowly enough (1.6 MB/s) that a kill lands mid-transfer; each child
 * resumes what the last one left (once all three are saved, the folder starts empty again). After
 * every kill the data folder is read as the app would present it: every file the manifest calls
 * saved must exist with the served file's exact size and SHA-256 (0 corrupt, 0 half files presented
 * as complete), and every file in the saved folders must be a complete served file. A last child
 * runs to the end: all three saved and exact.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadManifest } from '../../electron/core/downloads/store';
import { pdfLike, startFileServer } from '../core/helpers/file-server';
import { sleep, soakResult, startChild, type SoakResult } from './common';

const SIZE = 2 * 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export async function downloadKills(
  kills: number,
  script: string,
  timeLimitMs: number,
): Promise<SoakResult> {
  const started = Date.now();
  const server = await startFileServer();
  server.throttle = 16_384;
  const bodies = new Map(['a', 'b', 'c'].map((id, i) => [id, pdfLike(SIZE, i + 1)]));
  for (const [id, body] of bodies) server.files.set(`/${id}.pdf`, { body, digest: 'right' });
  const served = new Set([...bodies.values()].map(sha));
  const root = mkdtempSync(join(tmpdir(), 'ld-soak-downloads-'));
  const dataDir = join(root, 'data');
  let done = 0;
  let corrupt = 0;
  let halfPresented = 0;
  let strayIncomplete = 0;
  let completedBeforeKill = 0;
  let savedAtKills = 0;

  /**
   * What the app would present after a crash, read straight from the folder (no manager, no
   * network).
   */
  const check = async (): Promise<number> => {
    const downloads = join(dataDir, 'downloads');
    const { manifest } = await loadManifest(join(downloads, 'downloads.json'));
    let saved = 0;
    for (const record of manifest.products) {
      if (!record.saved) continue;
      savedAtKills++;
      saved++;
      const expected = bodies.get(record.productId)!;
      const file = findSaved(downloads, record.saved.version, record.saved.name);
      if (!file) {
        corrupt++;
        continue;
      }
      const body = readFileSync(file);
      if (body.length !== expected.length || record.saved.size !== expected.length) halfPresented++;
      else if (sha(body) !== sha(expected) || record.saved.sha256 !== sha(expected)) corrupt++;
    }
    for (const file of savedFiles(downloads))
      if (!served.has(sha(readFileSync(file)))) strayIncomplete++;
    return saved;
  };

  try {
    for (; done < kills && Date.now() - started < timeLimitMs; done++) {
      const child = startChild(script, [dataDir, server.origin]);
      await child.next('started', 60_000);
      await sleep(Math.random() * 2500);
      if (child.process.exitCode !== null) completedBeforeKill++;
      await child.kill9();
      // All saved: start again from an empty folder, so the next kill lands in a transfer again.
      if ((await check()) === 3)
        rmSync(join(dataDir, 'downloads'), { recursive: true, force: true });
    }
    // A last child to the end: everything saved, exact.
    const last = startChild(script, [dataDir, server.origin]);
    const end = await last.next<{ saved: number }>('done', 120_000);
    await last.exited;
    await check();
    const ranged = server.requests.filter((r) => r.headers.range !== undefined).length;
    return soakResult(
      'f. kill -9 during product file downloads',
      {
        kills: done,
        'resumed with Range': ranged,
        'saved seen at checks': savedAtKills,
        'child finished before its kill': completedBeforeKill,
        'saved at the end (of 3)': end.saved,
        'not all saved at the end': end.saved === 3 ? 0 : 1,
        'corrupt saved files': corrupt,
        'half files presented as complete': halfPresented,
        'incomplete files in saved folders': strayIncomplete,
      },
      [
        'not all saved at the end',
        'corrupt saved files',
        'half files presented as complete',
        'incomplete files in saved folders',
      ],
      { done, wanted: kills, started },
    );
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function savedFiles(downloads: string): string[] {
  const out: string[] = [];
  for (const s of safeList(downloads).filter((n) => n.startsWith('s-'))) {
    for (const p of safeList(join(downloads, s))) {
      for (const v of safeList(join(downloads, s, p)))
        for (const f of safeList(join(downloads, s, p, v))) out.push(join(downloads, s, p, v, f));
    }
  }
  return out;
}

function findSaved(downloads: string, version: string, name: string): string | null {
  return (
    savedFiles(downloads).find((f) => f.endsWith(join(version, name)) && statSync(f).isFile()) ??
    null
  );
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
