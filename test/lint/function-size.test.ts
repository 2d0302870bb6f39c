import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md "Parts": no function over 80 lines in electron/, embedded-server/ and
// scripts/, so the next hub is caught while it grows (blank lines and comments are not counted).
const eslint = new ESLint({ cwd: process.cwd() });

/** A function of `statements + 4` lines. */
function fn(statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};`).join('\n');
  return `export function hub(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
}

async function sizeMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'max-lines-per-function')
    .map((m) => m.message);
}

describe('the function-size rule', () => {
  it('reports a function of 81 lines in each of the three folders, and not one of 80', async () => {
    for (const file of [
      'electron/core/x.ts',
      'embedded-server/x.ts',
      'scripts/x.ts',
      'scripts/x.mjs',
    ]) {
      expect(await sizeMessages(file, fn(76)), file).toEqual([]);
      expect(await sizeMessages(file, fn(77)), file).toEqual([
        expect.stringContaining('Maximum allowed is 80'),
      ]);
    }
  });

  it('counts neither blank lines nor comments', async () => {
    const padded = fn(70).replace(/\n {2}total/g, '\n\n  // a why\n  total');
    expect(await sizeMessages('electron/core/x.ts', padded)).toEqual([]);
  });

  it('leaves the renderer and the tests alone (components and test tables read as a whole)', async () => {
    expect(await sizeMessages('renderer/src/x.ts', fn(200))).toEqual([]);
    expect(await sizeMessages('test/core/x.test.ts', fn(200))).toEqual([]);
  });
});
