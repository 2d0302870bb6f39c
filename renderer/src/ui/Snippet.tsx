/**
 * Renders a search snippet whose matches are wrapped in [[ and ]] as <mark> elements (never as
 * HTML).
 */
export function Snippet({ text }: { readonly text: string }) {
  const parts: { text: string; mark: boolean }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const open = rest.indexOf('[[');
    if (open < 0) {
      parts.push({ text: rest, mark: false });
      break;
    }
    const close = rest.indexOf(']]', open + 2);
    if (close < 0) {
      parts.push({ text: rest, mark: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), mark: false });
    parts.push({ text: rest.slice(open + 2, close), mark: true });
    rest = rest.slice(close + 2);
  }
  return (
    <>
      {parts.map((p, i) =>
        p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </>
  );
}
