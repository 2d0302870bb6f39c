/**
 * Okapi BM25 over the candidates themselves (query.ts rankedRows); their rowids, best first, then
 * by rowid.
 */
export function bm25OfCandidates(
  candidates: readonly { rowid: number; title: string; body: string }[],
  terms: readonly string[],
): number[] {
  const fold = (text: string) => text.normalize('NFKC').toLowerCase();
  const needles = terms.map(fold);
  const rows = candidates.map((c) => {
    const text = `${fold(c.title)}\n${fold(c.body)}`;
    return {
      rowid: c.rowid,
      length: text.length,
      counts: needles.map((n) => occurrences(text, n)),
    };
  });
  const n = rows.length;
  const average = rows.reduce((sum, r) => sum + r.length, 0) / Math.max(1, n);
  const idf = needles.map((_, t) => {
    const holding = rows.filter((r) => r.counts[t]! > 0).length;
    return Math.log((n - holding + 0.5) / (holding + 0.5) + 1);
  });
  const scored = rows.map((r) => ({
    rowid: r.rowid,
    score: r.counts.reduce(
      (sum, f, t) => sum + (idf[t]! * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * r.length) / average)),
      0,
    ),
  }));
  scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return scored.map((r) => r.rowid);
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count++;
  return count;
}
