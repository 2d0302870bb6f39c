import { cpSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The demo branch bundles the embedded server into the Electron main build, and the server reads
 * two folders at run time next to its module (`new URL('./migrations/', import.meta.url)`,
 * `new URL('./schema/', ...)`). Bundled, that module is whichever output file holds the reading
 * module: the demo loads the server only when a demo site starts (a dynamic import, so its own
 * chunk, e.g. out/main/chunks/), so each folder is copied beside the output files that hold its
 * reader (beside the entry when none is found).
 */
const READERS = [
  {
    reader: ['embedded-server', 'store', 'db.ts'].join(sep),
    from: 'embedded-server/store/migrations',
    to: 'migrations',
  },
  {
    reader: ['embedded-server', 'member-api', 'schema.ts'].join(sep),
    from: 'embedded-server/member-api/schema',
    to: 'schema',
  },
];

export function embeddedServerAssets(root = process.cwd()): Plugin {
  return {
    name: 'learning-desktop:embedded-server-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? resolve(root, 'out/main');
      for (const { reader, from, to } of READERS) {
        const dirs = new Set<string>();
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && file.moduleIds.some((id) => id.endsWith(reader)))
            dirs.add(dirname(join(outDir, file.fileName)));
        }
        if (dirs.size === 0) dirs.add(outDir);
        for (const dir of dirs) cpSync(resolve(root, from), join(dir, to), { recursive: true });
      }
    },
  };
}
