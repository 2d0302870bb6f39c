import { dirname, relative, resolve, sep } from 'node:path';
import type { Rule } from 'eslint';

/**
 * `local/layers`: the folders of one source root in layers, lowest first. A module may import its
 * own folder and the layers below its own, never a layer above it nor another folder of its own
 * layer (VS Code's `code-layering` rule is the model). A module is named by its first path segment
 * under the root without the extension, so `electron/core/db/open.ts` is `db` and
 * `electron/core/app-core.ts` is `app-core`. A folder that no layer lists is an error too, so a new
 * folder gets a place in the list when it is made.
 *
 * `entries` names folders entered only through their `index.ts` (a folder's one public entry): a
 * module outside such a folder imports the folder itself or its index, never a file inside it. `*`
 * stands for any one folder, so `features/*` makes each feature folder a room of its own.
 */

export interface LayersOptions {
  /** The source root, relative to the working directory, e.g. `electron/core`. */
  readonly root: string;
  /** Layers, lowest first; each lists folder (or root file) names. */
  readonly layers: readonly (readonly string[])[];
  /** Lower folders a folder still may not import (e.g. db does no HTTP: `{ db: ['net'] }`). */
  readonly forbid?: Readonly<Record<string, readonly string[]>>;
  /** Folders (paths under the root, `*` for any one folder) entered only through their index.ts. */
  readonly entries?: readonly string[];
}

/**
 * The folder of an `entries` pattern that `target` (a path under the root, split in segments) lies
 * inside, and the rest of its path there; null when it lies in none.
 */
function entryFolder(
  patterns: readonly string[],
  target: readonly string[],
): { folder: string; rest: string[] } | null {
  for (const pattern of patterns) {
    const parts = pattern.split('/');
    if (target.length < parts.length) continue;
    if (parts.every((p, i) => p === '*' || p === target[i]))
      return { folder: target.slice(0, parts.length).join('/'), rest: target.slice(parts.length) };
  }
  return null;
}

const segments = (rootDir: string, file: string): string[] | null => {
  const rel = relative(rootDir, file);
  return rel === '' || rel.startsWith('..') ? null : rel.split(sep);
};

/**
 * Whether a path inside an entry folder is its entry: the folder itself or its index (any
 * extension).
 */
const isEntry = (rest: readonly string[]): boolean =>
  rest.length === 0 || (rest.length === 1 && rest[0]!.replace(/\.[^.]*$/, '') === 'index');

function moduleName(rootDir: string, file: string): string | null {
  const rel = relative(rootDir, file);
  if (rel === '' || rel.startsWith('..')) return null;
  const first = rel.split(sep)[0]!;
  return first.replace(/\.[^.]*$/, '');
}

export const layersRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        "Folders of a source root import only their own layer's folder and the layers below.",
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
          forbid: {
            type: 'object',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          },
          entries: { type: 'array', items: { type: 'string' } },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        "'{{from}}' (layer {{fromLayer}} of {{root}}) may not import '{{to}}' (layer {{toLayer}}): a module imports only the layers below its own.",
      sideways:
        "'{{from}}' may not import '{{to}}': they are in the same layer ({{fromLayer}}) of {{root}}; move what both need into a lower layer.",
      forbidden:
        "'{{from}}' may not import '{{to}}' although it is lower: the layer list (eslint.config.ts) rules it out.",
      internal:
        "'{{spec}}' is inside {{folder}}: from outside it, import {{folder}}/index.ts, its one public entry (add what you need there).",
      unlisted:
        "'{{name}}' is in no layer of {{root}}: give it its place in the layer list (eslint.config.ts).",
    },
  },
  create(context) {
    const options = context.options[0] as LayersOptions;
    const rootDir = resolve(context.cwd, options.root);
    const layerOf = new Map<string, number>();
    options.layers.forEach((names, i) => names.forEach((n) => layerOf.set(n, i + 1)));
    const from = moduleName(rootDir, resolve(context.cwd, context.filename));
    if (from === null) return {};
    const fromLayer = layerOf.get(from);

    const fromFile = resolve(context.cwd, context.filename);
    const fromEntry = entryFolder(options.entries ?? [], segments(rootDir, fromFile) ?? []);

    const checkEntry = (node: Rule.Node, spec: string, target: string): void => {
      const inside = entryFolder(options.entries ?? [], segments(rootDir, target) ?? []);
      if (inside === null || isEntry(inside.rest) || inside.folder === fromEntry?.folder) return;
      context.report({ node, messageId: 'internal', data: { spec, folder: inside.folder } });
    };

    const check = (node: Rule.Node, spec: unknown): void => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = resolve(dirname(fromFile), spec);
      checkEntry(node, spec, target);
      const to = moduleName(rootDir, target);
      if (to === null || to === from) return;
      const toLayer = layerOf.get(to);
      const data = {
        from,
        to,
        root: options.root,
        fromLayer: String(fromLayer),
        toLayer: String(toLayer),
      };
      if (fromLayer === undefined)
        context.report({ node, messageId: 'unlisted', data: { name: from, root: options.root } });
      else if (toLayer === undefined)
        context.report({ node, messageId: 'unlisted', data: { name: to, root: options.root } });
      else if (toLayer > fromLayer) context.report({ node, messageId: 'upward', data });
      else if (toLayer === fromLayer) context.report({ node, messageId: 'sideways', data });
      else if (options.forbid?.[from]?.includes(to))
        context.report({ node, messageId: 'forbidden', data });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
