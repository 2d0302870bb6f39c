import { dirname, relative, resolve, sep } from 'node:path';
import type { Rule } from 'eslint';

/**
 * `local/layers`: the folders of one source root in layers, lowest first. A module may import its own folder and
 * the layers below its own, never a layer above it nor another folder of its own layer (VS Code's
 * `code-layering` rule is the model). A module is named by its first path segment under the root without the
 * extension, so `electron/core/db/open.ts` is `db` and `electron/core/app-core.ts` is `app-core`. A folder that
 * no layer lists is an error too, so a new folder gets a place in the list when it is made.
 */

export interface LayersOptions {
  /** The source root, relative to the working directory, e.g. `electron/core`. */
  readonly root: string;
  /** Layers, lowest first; each lists folder (or root file) names. */
  readonly layers: readonly (readonly string[])[];
  /** Lower folders a folder still may not import (e.g. db does no HTTP: `{ db: ['net'] }`). */
  readonly forbid?: Readonly<Record<string, readonly string[]>>;
}

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

    const check = (node: Rule.Node, spec: unknown): void => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = moduleName(
        rootDir,
        resolve(dirname(resolve(context.cwd, context.filename)), spec),
      );
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
