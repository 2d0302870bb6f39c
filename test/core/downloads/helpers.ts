import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bytes of the saved copies under `dir`/downloads, found by walking the folder (never through
 * the manager).
 */
export function savedFilesIn(dir: string): { path: string; body: Buffer }[] {
  const root = join(dir, 'downloads');
  const out: { path: string; body: Buffer }[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ path: p, body: readFileSync(p) });
    }
  };
  // Saved copies live in the site folders only (not .partial, not the manifest or its temp file).
  for (const e of readdirSync(root, { withFileTypes: true }))
    if (e.isDirectory() && e.name.startsWith('s-')) walk(join(root, e.name));
  return out;
}

/** The partial files of transfers under way. */
export const partialsIn = (dir: string) => readdirSync(join(dir, 'downloads', '.partial'));

export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
