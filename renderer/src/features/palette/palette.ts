/**
 * What the command palette lists and how a typed query picks from it. Pure: no DOM, no bridge
 * (tested in Node). Matching is by words, in any case and width: every word of the query must start
 * a word of the item's text (its label or a keyword such as an order number), so "int data" finds
 * "Intro to Data Analysis" and "T2024" an order. Chinese has no spaces between words, so a query
 * word is also found anywhere inside a CJK word.
 */

/**
 * `found`: a hit of the app's search (every kind of every school), listed after the palette's own
 * matches.
 */
export type PaletteKind = 'screen' | 'school' | 'course' | 'order' | 'command' | 'found' | 'note';

export interface PaletteItem {
  readonly id: string;
  readonly kind: PaletteKind;
  readonly label: string;
  /** A second line: the school, an amount, a shortcut. */
  readonly detail?: string;
  /** Other words it answers to (an order's number, a course's instructor). */
  readonly keywords?: readonly string[];
  /** Its keyboard shortcut, written for this platform ("Ctrl+1", "⌘1"). */
  readonly shortcut?: string;
}

/** The order groups are listed in when nothing is typed, and ties are broken in. */
const KIND_ORDER: readonly PaletteKind[] = [
  'command',
  'screen',
  'school',
  'course',
  'order',
  'note',
  'found',
];

const fold = (s: string) => s.normalize('NFKC').toLocaleLowerCase();
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

function words(text: string): string[] {
  return fold(text)
    .split(/[\s\-_/·.,:;()（）「」、，。]+/)
    .filter((w) => w.length > 0);
}

/**
 * 0 when the query does not match; higher is better: a match at the start of the label beats one
 * inside.
 */
export function score(item: PaletteItem, query: string): number {
  const q = words(query);
  if (q.length === 0) return 1;
  const label = fold(item.label);
  const haystack = [...words(item.label), ...(item.keywords ?? []).flatMap(words)];
  let total = 0;
  for (const w of q) {
    const start = haystack.some((h) => h.startsWith(w));
    const inside = !start && CJK.test(w) && haystack.some((h) => h.includes(w));
    if (!start && !inside) return 0;
    total += start ? 2 : 1;
  }
  if (label.startsWith(fold(query.trim()))) total += 3;
  return total;
}

/** The items matching `query`, best first (then by kind, then as given), at most `limit`. */
export function pick(items: readonly PaletteItem[], query: string, limit = 50): PaletteItem[] {
  return items
    .map((item, index) => ({ item, index, score: score(item, query) }))
    .filter((x) => x.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        KIND_ORDER.indexOf(a.item.kind) - KIND_ORDER.indexOf(b.item.kind) ||
        a.index - b.index,
    )
    .slice(0, limit)
    .map((x) => x.item);
}
