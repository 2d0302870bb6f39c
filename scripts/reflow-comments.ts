/**
 * Wraps comments to the comment width (`npm run format` runs it after Prettier, which leaves
 * comments alone). Only a paragraph holding a line over the width is touched: its lines are joined
 * and broken again. A paragraph ends at a blank comment line, a list item, a table row, a fence, a
 * directive or a line ending in ":", and an indented line is code or a list item's text, so lists,
 * tables, diagrams and examples stay as written. A trailing comment that makes its line too long
 * moves to its own line above the code (above any directive naming that line). Directives (eslint,
 * TypeScript, Prettier, c8), URLs and words longer than the width are left as they are. `--check`
 * lists the files it would change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

export const COMMENT_WIDTH = 100;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED = /^(node_modules|out|dist|release)\/|graphql-env\.ts$|schema-types\.ts$|\.d\.ts$/;
const DIRECTIVE = /eslint-|@ts-|prettier-ignore|c8 |istanbul |#region|#endregion|^\/\/\//;
/** A line that starts something of its own: a list item, a table row, a tag, a fence, a heading. */
const STARTS_OWN = /^(?:[-*+] |\d+[.)] |\||@|```|#|>|[A-Z][\w ]{0,30}:\s*$)/;

interface Line {
  /** Everything before the comment's words: indentation and `//`, `*` or `/**`. */
  readonly prefix: string;
  readonly words: string;
}

/**
 * The comment lines of a file (0-based line numbers) that stand alone, and those that trail code.
 */
function commentLines(file: string, text: string): { own: Set<number>; trailing: Set<number> } {
  const kind = file.endsWith('x')
    ? ts.ScriptKind.TSX
    : file.endsWith('.ts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
      ranges.set(r.pos, r);
    for (const r of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) ranges.set(r.pos, r);
    node.forEachChild(visit);
  };
  visit(source);
  for (const r of ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()) ?? []) {
    ranges.set(r.pos, r);
  }
  const own = new Set<number>();
  const trailing = new Set<number>();
  for (const r of ranges.values()) {
    const start = source.getLineAndCharacterOfPosition(r.pos);
    const end = source.getLineAndCharacterOfPosition(r.end);
    const before = text.slice(r.pos - start.character, r.pos);
    const alone = before.trim() === '';
    for (let line = start.line; line <= end.line; line++) {
      if (line === start.line && !alone) {
        if (r.kind === ts.SyntaxKind.SingleLineCommentTrivia) trailing.add(line);
      } else own.add(line);
    }
  }
  return { own, trailing };
}

function split(line: string): Line | null {
  const m = /^(\s*(?:\/\/+ ?|\/\*\*? ?|\* ?))(.*)$/.exec(line);
  if (!m || m[2]!.startsWith('*/')) return null;
  return { prefix: m[1]!, words: m[2]! };
}

/**
 * Where to break `words` so that `prefix + head` fits, preferring a space outside `code`; -1 when
 * no space allows it.
 */
function breakAt(prefix: string, words: string, width: number): number {
  const room = width - prefix.length;
  if (room < 20) return -1;
  let any = -1;
  for (let at = Math.min(room, words.length - 1); at > 0; at--) {
    // Never before `#`: "RFC 9700 #4" and "UAX #9" stay on one line, as the tracker rule reads
    // them.
    if (words[at] !== ' ' || words[at + 1] === '#') continue;
    if (any < 0) any = at;
    const ticks = words.slice(0, at).split('`').length - 1;
    if (ticks % 2 === 0) return at;
  }
  return any;
}

/** The indentation a wrapped list item's next line gets, so it reads as the same item. */
function hanging(words: string): string {
  const m = /^((?:[-*+]|\d+[.)]) )/.exec(words);
  return m ? ' '.repeat(m[1]!.length) : '';
}

function continues(next: Line | null, prefix: string, indent: string): boolean {
  if (!next || next.prefix !== prefix) return false;
  if (next.words.trim() === '' || DIRECTIVE.test(next.words)) return false;
  if (indent !== '' && !next.words.startsWith(indent)) return false;
  const rest = next.words.slice(indent.length);
  if (rest.startsWith(' ') || STARTS_OWN.test(rest) || rest.startsWith('*/')) return false;
  return true;
}

/**
 * The prefix of the line after `prefix`'s: a block comment's opening gives way to its ` * ` lines.
 */
function nextPrefix(prefix: string): string {
  const m = /^(\s*)\/\*\*? ?$/.exec(prefix);
  return m ? `${m[1]} * ` : prefix;
}

function reflowOwn(lines: string[], i: number, width: number): boolean {
  const line = split(lines[i]!);
  if (!line || DIRECTIVE.test(line.words) || /https?:\/\/\S{30,}/.test(line.words)) return false;
  if (line.words.includes('```') || line.words.startsWith('|')) return false;
  const indentOfLine = /^\s*/.exec(line.prefix)![0];
  if (line.prefix.trimStart().startsWith('/*') && line.words.trimEnd().endsWith('*/')) {
    // A one-line `/** ... */` that is too long becomes a block, whose middle line the next pass
    // wraps.
    const opener = line.prefix.trimEnd();
    const body = line.words.trimEnd().slice(0, -2).trimEnd();
    lines.splice(
      i,
      1,
      `${indentOfLine}${opener.trimStart()}`,
      `${indentOfLine} * ${body}`,
      `${indentOfLine} */`,
    );
    return true;
  }
  return rewrapParagraph(lines, i, width);
}

/**
 * Whether `line` may be joined to the paragraph line above it, whose continuations are indented
 * `indent`.
 */
function joins(above: Line, line: Line | null, indent: string): boolean {
  if (!line || line.prefix !== nextPrefix(above.prefix)) return false;
  if (above.words.trimEnd().endsWith(':') || above.words.trimEnd().endsWith('*/')) return false;
  return continues(line, line.prefix, indent);
}

/**
 * Whether a line can be part of a paragraph at all (not blank, no directive, no table, no fence).
 */
function prose(line: Line | null): line is Line {
  if (!line || line.words.trim() === '' || DIRECTIVE.test(line.words)) return false;
  return !line.words.includes('```') && !line.words.startsWith('|') && !line.words.startsWith(' ');
}

/**
 * Wraps the paragraph holding line `i` again: its lines are joined and broken at the width. A
 * paragraph is a first line (prose, or a list item whose next lines hang under its text) and the
 * lines that continue it.
 */
function rewrapParagraph(lines: string[], i: number, width: number): boolean {
  let start = i;
  while (start > 0) {
    const here = split(lines[start]!)!;
    const above = split(lines[start - 1]!);
    // A list item or a label starts its own paragraph; so does any line after a blank or a
    // directive.
    if (hanging(here.words) !== '' || STARTS_OWN.test(here.words)) break;
    if (!above || above.words.trim() === '' || DIRECTIVE.test(above.words)) break;
    if (above.words.includes('```') || above.words.startsWith('|')) break;
    if (nextPrefix(above.prefix) !== here.prefix || /(:|\*\/)\s*$/.test(above.words)) break;
    start--;
    // The line that opens a block comment is always a paragraph's first line.
    if (above.prefix !== nextPrefix(above.prefix)) break;
  }
  const first = split(lines[start]!);
  if (!prose(first)) return false;
  const indent = hanging(first.words);
  for (let k = start + 1; k <= i; k++) {
    if (!joins(split(lines[k - 1]!)!, split(lines[k]!), indent)) return false;
  }
  let end = i;
  while (end + 1 < lines.length && joins(split(lines[end]!)!, split(lines[end + 1]!), indent))
    end++;
  let text = first.words.trimEnd();
  for (let k = start + 1; k <= end; k++)
    text += ` ${split(lines[k]!)!.words.slice(indent.length).trim()}`;
  const closes = text.endsWith('*/');
  if (closes) text = text.slice(0, -2).trimEnd();
  const wrapped = wrap(first.prefix, nextPrefix(first.prefix) + indent, text, width);
  if (closes) wrapped.push(`${/^\s*/.exec(first.prefix)![0]} */`);
  const before = lines.slice(start, end + 1).join('\n');
  if (wrapped.join('\n') === before) return false;
  lines.splice(start, end - start + 1, ...wrapped);
  return true;
}

/** Greedy wrapping of `text`: the first line after `firstPrefix`, the others after `restPrefix`. */
function wrap(firstPrefix: string, restPrefix: string, text: string, width: number): string[] {
  const out: string[] = [];
  let prefix = firstPrefix;
  let rest = text;
  while (prefix.length + rest.length > width) {
    const cut = breakAt(prefix, rest, width);
    if (cut < 0) break;
    out.push(prefix + rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut + 1).trimStart();
    prefix = restPrefix;
  }
  out.push(prefix + rest);
  return out;
}

/** Moves a trailing `// ...` that makes its line too long to its own line above the code. */
function liftTrailing(lines: string[], i: number, width: number): boolean {
  const text = lines[i]!;
  const at = text.lastIndexOf('//');
  if (at < 0 || DIRECTIVE.test(text.slice(at))) return false;
  const code = text.slice(0, at).trimEnd();
  if (code.length > width) return false;
  const indent = /^\s*/.exec(text)![0];
  // Above any directive that names the next line, so the directive still names the code.
  let above = i;
  while (above > 0 && /^\s*\/\/ (eslint-disable-next-line|@ts-)/.test(lines[above - 1]!)) above--;
  lines.splice(i, 1, code);
  lines.splice(above, 0, `${indent}${text.slice(at).trimEnd()}`);
  return true;
}

export function reflow(file: string, text: string, width = COMMENT_WIDTH): string {
  let lines = text.split('\n');
  for (let pass = 0; pass < 50; pass++) {
    const { own, trailing } = commentLines(file, lines.join('\n'));
    let changed = false;
    // Bottom up, so that what a change inserts never moves the lines still to be looked at; a line
    // a change made too long is met by the next pass.
    for (let i = lines.length - 1; i >= 0; i--) {
      if (lines[i]!.length <= width) continue;
      if (own.has(i)) changed = reflowOwn(lines, i, width) || changed;
      else if (trailing.has(i)) changed = liftTrailing(lines, i, width) || changed;
    }
    if (!changed) break;
    lines = lines.join('\n').split('\n');
  }
  return lines.join('\n');
}

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files'], { encoding: 'utf8' });
  return out.split('\n').filter((f) => SOURCE.test(f) && !SKIPPED.test(f));
}

function main(): void {
  const check = process.argv.includes('--check');
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const changed: string[] = [];
  for (const file of named.length > 0 ? named : trackedSources()) {
    const text = readFileSync(file, 'utf8');
    const next = reflow(file, text);
    if (next === text) continue;
    changed.push(file);
    if (!check) writeFileSync(file, next);
  }
  if (check && changed.length > 0) {
    console.error(`Comments over ${COMMENT_WIDTH} characters in:\n  ${changed.join('\n  ')}`);
    console.error('Run `npm run format` to wrap them.');
    process.exit(1);
  }
  if (!check) console.log(`reflowed comments in ${changed.length} files`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
