/**
 * An RFC 4180 reader for the tests (csv-parse is not a dependency): a leading BOM is dropped,
 * quoted fields may hold commas, doubled quotes and line breaks, records end with CRLF. Strict: a
 * stray quote or an unended field throws.
 */
export function readCsv(text: string): string[][] {
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < s.length) {
    let field = '';
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length) throw new Error('unended quoted field');
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
    } else {
      while (i < s.length && s[i] !== ',' && s[i] !== '\r' && s[i] !== '\n') {
        if (s[i] === '"') throw new Error(`stray quote at ${i}`);
        field += s[i++];
      }
    }
    row.push(field);
    if (s[i] === ',') {
      i++;
    } else if (s.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < s.length) {
      throw new Error(`unexpected ${JSON.stringify(s[i])} at ${i} (records end with CRLF)`);
    }
  }
  if (row.length > 0) throw new Error('the last record has no CRLF');
  return rows;
}
