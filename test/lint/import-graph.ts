import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree as TypeScript resolves it (type-only imports count: a cycle
 * through types still ties two modules together), and its cycles. No import plugin for ESLint is
 * installed, so the no-cycle rule is this module plus test/lint/cycles.test.ts.
 */

const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
};

/**
 * Module -> the project modules it imports (relative to `root`), for every source file below
 * `dirs`.
 */
export function importGraph(root: string, dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = dirs.flatMap((d) => sourceFiles(resolve(root, d)));
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const resolved = ts.resolveModuleName(ref.fileName, file, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = resolved.resolvedFileName;
      if (target.endsWith('.d.ts') || !target.startsWith(root)) continue;
      targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/**
 * The cycles of a graph: each strongly connected component of more than one module, or a module
 * importing itself.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indices.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!indices.has(to)) {
          indices.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, indices.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === indices.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/**
 * The same graph between the folders directly under `parent` (e.g. `renderer/src/features`): an
 * edge from one folder to another for each import across them; modules outside `parent` and imports
 * inside a folder are left out.
 */
export function folderGraph(
  graph: ReadonlyMap<string, readonly string[]>,
  parent: string,
): Map<string, string[]> {
  const folderOf = (module: string): string | null => {
    if (!module.startsWith(`${parent}/`)) return null;
    const rest = module.slice(parent.length + 1).split('/');
    return rest.length > 1 ? `${parent}/${rest[0]}` : null;
  };
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = folderOf(from);
    if (a === null) continue;
    const edges = folders.get(a) ?? new Set<string>();
    folders.set(a, edges);
    for (const to of targets) {
      const b = folderOf(to);
      if (b !== null && b !== a) edges.add(b);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
}
