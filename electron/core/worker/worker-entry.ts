/**
 * How a worker thread of the core is started, wherever the core runs from: the bundled script
 * beside the main bundle (electron-vite writes CommonJS workers; the browser host's and a test's
 * esbuild bundles, ESM), else the TypeScript source through tsx (vitest, tsx, the browser host from
 * a checkout).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CoreError } from '../errors';

export interface WorkerEntry {
  readonly script: string;
  /** The script is code (tsx's loader importing the source), not a file. */
  readonly eval: boolean;
}

export function findWorkerEntry(options: {
  /**
   * The calling module's import.meta.url: the bundled worker sits beside it or one folder above (a
   * chunk).
   */
  readonly from: string;
  /** The bundled worker's file names, e.g. ['db-writer.cjs', 'db-writer.js']. */
  readonly names: readonly string[];
  /** The worker's TypeScript source beside the calling module. */
  readonly source: string;
  /** Said when neither exists (a damaged install). */
  readonly missing: string;
}): WorkerEntry {
  const here = dirname(fileURLToPath(options.from));
  for (const candidate of options.names.flatMap((name) => [
    join(here, name),
    join(here, '..', name),
  ])) {
    if (existsSync(candidate)) return { script: candidate, eval: false };
  }
  const source = join(here, options.source);
  if (!existsSync(source)) throw new CoreError('storage-error', options.missing);
  // A worker does not inherit the parent's TypeScript loader, so it starts through tsx's API, which
  // loads the source and what it imports.
  const require = createRequire(options.from);
  const api = join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs');
  const code = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => tsx.tsImport(${JSON.stringify(pathToFileURL(source).href)}, ${JSON.stringify(options.from)}))`;
  return { script: code, eval: true };
}
