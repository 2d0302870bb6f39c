import { defineConfig } from 'electron-vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { commonjsWorker } from './scripts/commonjs-worker';
import { embeddedServerAssets } from './scripts/embedded-server-assets';
import { rendererConfig } from './renderer/vite.config';

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};

// Entries are absolute: a bare 'electron/...' path would be taken for the electron package and left
// external. electron-vite builds the three Electron bundles into out/: main, preload and the
// renderer (shared config).
export default defineConfig({
  main: {
    // embeddedServerAssets: the demo's embedded server reads its SQL migrations and GraphQL schema
    // beside the bundle. Its `dependencies` stay external (electron-vite's build.externalizeDeps):
    // they ship in app.asar's node_modules. db-writer.cjs: the database writer's worker thread,
    // CommonJS (electron/core/worker/writer.ts looks for it beside the bundle;
    // scripts/commonjs-worker.ts says why); file-transfer.cjs: the download thread, likewise
    // (electron/core/downloads/transfer-thread.ts).
    plugins: [
      embeddedServerAssets(),
      commonjsWorker({
        entry: resolve('electron/core/worker/writer-worker.ts'),
        fileName: 'db-writer.cjs',
        external: Object.keys(dependencies),
      }),
      commonjsWorker({
        entry: resolve('electron/core/downloads/transfer-worker.ts'),
        fileName: 'file-transfer.cjs',
        // ipaddr.js (the address check of each connection) is bundled in: the download thread loads
        // no package.
        external: Object.keys(dependencies).filter((name) => name !== 'ipaddr.js'),
      }),
    ],
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve('electron/main/index.ts') } },
    },
  },
  // A sandboxed preload can require only electron, events, timers and url (Electron docs, "Process
  // Sandboxing"), so everything else it uses is bundled into it: electron-vite leaves
  // `dependencies` (zod) external by default.
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    ...rendererConfig,
    build: {
      ...rendererConfig.build,
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
