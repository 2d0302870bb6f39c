import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph';

// ARCHITECTURE.md: "no import cycle is allowed anywhere". No ESLint import plugin is installed, so the rule is
// this test: the tree's import graph, resolved by TypeScript, has no strongly connected component.
const root = process.cwd();

describe('no import cycles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fires on a cycle, including one through a type-only import', () => {
    writeFileSync(join(scratch, 'a.ts'), "import type { B } from './b';\nexport type A = B | 1;\n");
    writeFileSync(join(scratch, 'b.ts'), "import { c } from './c';\nexport type B = typeof c;\n");
    writeFileSync(
      join(scratch, 'c.ts'),
      "import type { A } from './a';\nexport const c: A | 2 = 2;\n",
    );
    writeFileSync(join(scratch, 'd.ts'), "import { c } from './c';\nexport const d = c;\n");
    const cycles = importCycles(importGraph(scratch, ['.']));
    expect(cycles).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('finds none in the app, the renderer, the embedded server, the tests and the scripts', () => {
    const cycles = importCycles(
      importGraph(root, ['electron', 'renderer/src', 'embedded-server', 'test', 'scripts']),
    );
    expect(cycles.map((c) => c.join(' <-> '))).toEqual([]);
  });
});
