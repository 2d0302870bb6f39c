import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImageDiskCache } from '../../../electron/core/downloads/image-cache';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'ld-image-cache-'));
  dirs.push(d);
  return d;
}
const png = (n: number, size = 10) => `data:image/png;base64,${String(n).repeat(size)}`;

describe('covers and avatars kept on disk', () => {
  it('survives a restart, keeps only https pictures, and goes with its site', async () => {
    const dir = folder();
    const first = new ImageDiskCache({ dir });
    await first.put('s1', 'https://cdn.example/a.png', png(1));
    await first.put('s1', 'http://127.0.0.1:9/a.png', png(2));
    await first.put('s2', 'https://cdn.example/b.png', png(3));
    // A new instance, as after a restart, reads what the folder holds.
    const again = new ImageDiskCache({ dir });
    expect(await again.get('s1', 'https://cdn.example/a.png')).toBe(png(1));
    expect(await again.get('s1', 'http://127.0.0.1:9/a.png')).toBeNull();
    // One site's picture is not another's.
    expect(await again.get('s2', 'https://cdn.example/a.png')).toBeNull();
    expect(await again.size()).toMatchObject({ entries: 2 });

    await again.keepOnly(['s2']);
    expect(await again.get('s1', 'https://cdn.example/a.png')).toBeNull();
    expect(await again.get('s2', 'https://cdn.example/b.png')).toBe(png(3));
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('is bounded in count and bytes, the least recently used going first', async () => {
    let t = 1_000_000;
    const cache = new ImageDiskCache({
      dir: folder(),
      maxEntries: 3,
      maxBytes: 960,
      now: () => t++,
    });
    for (const n of [1, 2, 3]) await cache.put('s', `https://x.example/${n}`, png(n));
    // Used: 1 is now the most recent; 4 pushes out 2, the least recently used.
    expect(await cache.get('s', 'https://x.example/1')).toBe(png(1));
    await cache.put('s', 'https://x.example/4', png(4));
    expect(await cache.get('s', 'https://x.example/2')).toBeNull();
    expect(await cache.size()).toMatchObject({ entries: 3 });
    // A large picture pushes out older ones to stay within the bytes.
    await cache.put('s', 'https://x.example/5', png(5, 900));
    const { bytes, entries } = await cache.size();
    expect(bytes).toBeLessThanOrEqual(960);
    expect(entries).toBeLessThan(3);
    expect(await cache.get('s', 'https://x.example/5')).toBe(png(5, 900));
    // Larger than the whole bound: not kept at all.
    await cache.put('s', 'https://x.example/6', png(6, 2000));
    expect(await cache.get('s', 'https://x.example/6')).toBeNull();
  });
});
