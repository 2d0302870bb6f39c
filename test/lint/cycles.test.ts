import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderGraph, importCycles, importGraph } from './import-graph';

// ARCHITECTURE.md: "no import cycle is allowed anywhere". No ESLint import plugin is installed, so
// the rule is this test: the tree's import graph, resolved by TypeScript, has no strongly connected
// component.
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

// ARCHITECTURE.md "Renderer features": a feature folder may use another through its index.ts, but
// two features never use each other (settings uses sites, so sites never uses settings): what both
// need moves to state/ or ui/.
describe('no cycles between renderer feature folders', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'feature-cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("fires on two features that use each other, each through the other's entry", () => {
    for (const dir of ['features/a', 'features/b', 'features/c'])
      mkdirSync(join(scratch, dir), { recursive: true });
    writeFileSync(join(scratch, 'features/a/index.ts'), "export { a } from './A';\n");
    writeFileSync(
      join(scratch, 'features/a/A.ts'),
      "import { b } from '../b/index';\nexport const a = b;\n",
    );
    writeFileSync(join(scratch, 'features/b/index.ts'), "export { b } from './B';\n");
    writeFileSync(join(scratch, 'features/b/B.ts'), 'export const b = 1;\n');
    writeFileSync(
      join(scratch, 'features/b/U.ts'),
      "import { a } from '../a/index';\nexport const u = a;\n",
    );
    writeFileSync(
      join(scratch, 'features/c/C.ts'),
      "import { a } from '../a/index';\nexport const c = a;\n",
    );
    // No module cycle (b's entry does not export U.ts), yet a and b use each other.
    const graph = importGraph(scratch, ['.']);
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(folderGraph(graph, 'features'))).toEqual([['features/a', 'features/b']]);
  });

  it('finds none in the renderer', () => {
    const graph = folderGraph(importGraph(root, ['renderer/src']), 'renderer/src/features');
    expect(graph.size).toBeGreaterThan(10);
    expect(importCycles(graph).map((c) => c.join(' <-> '))).toEqual([]);
  });
});
