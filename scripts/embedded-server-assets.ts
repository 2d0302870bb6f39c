import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The demo branch bundles the embedded server into the Electron main bundle, and the server reads two folders at
 * run time next to its module (`new URL('./migrations/', import.meta.url)`, `new URL('./schema/', ...)`). Bundled,
 * that module is out/main/index.js, so both folders are copied beside it.
 */
export function embeddedServerAssets(root = process.cwd()): Plugin {
  return {
    name: 'learning-desktop:embedded-server-assets',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? resolve(root, 'out/main');
      cpSync(resolve(root, 'embedded-server/store/migrations'), join(outDir, 'migrations'), { recursive: true });
      cpSync(resolve(root, 'embedded-server/member-api/schema'), join(outDir, 'schema'), { recursive: true });
    },
  };
}
