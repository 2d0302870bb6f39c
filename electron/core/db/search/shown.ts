const ELLIPSIS = '…';
const MARK = /(\[\[|\]\])/;

/**
 * A snippet of the index's text (FTS5 snippet() or likeSnippet: matches in [[ ]], cut with …) told
 * again in the school's own text `shown` (siteText of the row's title), so a full-width colon stays
 * full width where the index holds ":" (normalize.ts). Each character of `shown` is mapped to its
 * NFKC form; when they add up to `indexed`, the snippet's place and marks carry over. Otherwise
 * (the snippet is of another column, or the forms differ) the snippet is returned as it was: never
 * wrong, at worst in the search form.
 */
export function shownSnippet(snippet: string, indexed: string, shown: string): string {
  const chars = [...shown];
  const starts: number[] = [];
  let folded = '';
  for (const c of chars) {
    starts.push(folded.length);
    folded += c.normalize('NFKC');
  }
  starts.push(folded.length);
  if (folded !== indexed) return snippet;
  const parts = snippet.split(MARK);
  const plain = parts.filter((p) => !MARK.test(p)).join('');
  const place = placeOf(plain, indexed);
  if (place === null) return snippet;
  // The character of `shown` at or before (down) / at or after (up) an offset of the index's text.
  const down = (o: number) => starts.findLastIndex((s) => s <= o);
  const up = (o: number) => starts.findIndex((s) => s >= o);
  let offset = place.at;
  let from = down(offset);
  let out = place.lead ? ELLIPSIS : '';
  let open = false;
  for (const [i, part] of parts.entries()) {
    if (MARK.test(part)) {
      const to = part === '[[' ? down(offset) : up(offset);
      out += chars.slice(from, to).join('') + part;
      from = to;
      open = part === '[[';
      continue;
    }
    offset += part.length - (i === 0 && place.lead ? ELLIPSIS.length : 0);
  }
  offset = place.at + place.length;
  out +=
    chars.slice(from, up(offset)).join('') + (open ? ']]' : '') + (place.trail ? ELLIPSIS : '');
  return out;
}

/**
 * Where a snippet's text (its marks taken out) lies in the index's text, with or without its
 * ellipses.
 */
function placeOf(
  plain: string,
  indexed: string,
): { at: number; length: number; lead: boolean; trail: boolean } | null {
  for (const lead of [false, true])
    for (const trail of [false, true]) {
      if ((lead && !plain.startsWith(ELLIPSIS)) || (trail && !plain.endsWith(ELLIPSIS))) continue;
      const text = plain.slice(
        lead ? ELLIPSIS.length : 0,
        trail ? plain.length - ELLIPSIS.length : plain.length,
      );
      const at = indexed.indexOf(text);
      if (at >= 0) return { at, length: text.length, lead, trail };
    }
  return null;
}
