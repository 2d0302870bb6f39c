import { describe, expect, it } from 'vitest';
import { COMMENT_WIDTH, reflow } from '../../scripts/reflow-comments';

const long = (words: number): string =>
  Array.from({ length: words }, (_, i) => `word${i}`).join(' ');
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

describe('comment reflow (npm run format)', () => {
  it('wraps a paragraph of line comments to the width and keeps every word in order', () => {
    const source = `// ${long(40)}\n// short tail.\nconst a = 1;\n`;
    const out = reflow('x.ts', source);
    expect(widest(out)).toBeLessThanOrEqual(COMMENT_WIDTH);
    const words = (text: string) =>
      text
        .replace(/\/\/|\n/g, ' ')
        .split(/\s+/)
        .filter(Boolean);
    expect(words(out)).toEqual(words(source));
    expect(out.endsWith('const a = 1;\n')).toBe(true);
  });

  it('turns a one-line doc comment that is too long into a block', () => {
    const out = reflow('x.ts', `/** ${long(25)} */\nexport const b = 2;\n`);
    expect(out.split('\n')[0]).toBe('/**');
    expect(out).toContain(' */\nexport const b = 2;');
    expect(widest(out)).toBeLessThanOrEqual(COMMENT_WIDTH);
  });

  it('leaves lists, indented examples, short lines and paragraphs within the width alone', () => {
    const source = [
      '/**',
      ' * Steps:',
      ` * - ${long(30)}`,
      ' * - second item',
      ' *     code(example);',
      ' * A short line.',
      ' * Another short line.',
      ' */',
      'export const c = 3;',
      '',
    ].join('\n');
    const out = reflow('x.ts', source);
    const lines = out.split('\n');
    expect(lines[1]).toBe(' * Steps:');
    expect(lines[2]!.startsWith(' * - word0')).toBe(true);
    // The item's next line hangs under its text.
    expect(lines[3]!.startsWith(' *   word')).toBe(true);
    expect(out).toContain(
      ' * - second item\n *     code(example);\n * A short line.\n * Another short line.',
    );
    expect(widest(out)).toBeLessThanOrEqual(COMMENT_WIDTH);
  });

  it('moves a trailing comment above its line, and above a directive naming that line', () => {
    const code = `  const value = compute(${'x, '.repeat(14)}y);`;
    const source = `function f() {\n  // @ts-expect-error: untyped\n${code} // why this value is computed so\n}\n`;
    const out = reflow('x.ts', source);
    expect(out).toBe(
      `function f() {\n  // why this value is computed so\n  // @ts-expect-error: untyped\n${code}\n}\n`,
    );
  });

  it('never touches directives, URLs or strings, and a second run changes nothing', () => {
    const url = `https://example.test/${'a'.repeat(90)}`;
    const source = [
      `// eslint-disable-next-line no-console -- ${long(20)}`,
      `// See ${url}`,
      `const s = '// ${long(20)}';`,
      `// ${long(30)} (UAX #9 and RFC 9700 #4 stay whole)`,
      '',
    ].join('\n');
    const once = reflow('x.ts', source);
    expect(once.split('\n').slice(0, 3)).toEqual(source.split('\n').slice(0, 3));
    expect(once).not.toMatch(/UAX\n|RFC 9700\n/);
    expect(reflow('x.ts', once)).toBe(once);
  });
});
