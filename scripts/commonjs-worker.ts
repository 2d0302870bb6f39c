import { builtinModules } from 'node:module';
import { build, type Plugin } from 'vite';

/**
 * Builds a worker thread's entry as one CommonJS file beside the main bundle. The main bundle is
 * ESM, but a worker started from inside app.asar is safest as CommonJS: Electron's asar support
 * covers `require` in worker threads (its own tests start CJS workers from an asar), while the ESM
 * loader reading an asar from a worker is not something it tests. Packages stay external
 * (`require`d from app.asar's node_modules, natives unpacked).
 */
export function commonjsWorker(options: {
  readonly entry: string;
  readonly fileName: string;
  readonly external: readonly string[];
}): Plugin {
  let outDir = '';
  return {
    name: 'learning-desktop:commonjs-worker',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const packages = new Set(options.external);
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          minify: false,
          sourcemap: false,
          copyPublicDir: false,
          lib: { entry: options.entry, formats: ['cjs'], fileName: () => options.fileName },
          rollupOptions: {
            external: (id) =>
              id.startsWith('node:') ||
              builtinModules.includes(id) ||
              packages.has(
                id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]!,
              ),
            output: { inlineDynamicImports: true },
          },
        },
      });
    },
  };
}
