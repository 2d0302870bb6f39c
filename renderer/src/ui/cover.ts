/**
 * A course without a cover picture (or offline, where the picture cannot load) still gets a cover
 * of its own: a hue derived from its id, stable across launches and machines, so the same course
 * always looks the same.
 */
export function coverHue(id: string): number {
  // FNV-1a, 32 bits: cheap, well spread for short ids, and the same in every JavaScript engine.
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 360;
}

/**
 * The first letter or CJK character of a title, for the cover's monogram ("" for an empty title).
 */
export function monogram(title: string): string {
  const first = [...title.trim()][0] ?? '';
  return first.toLocaleUpperCase();
}
