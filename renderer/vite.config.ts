import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The renderer's one build config. electron.vite.config.ts reuses it for the Electron window; the browser
 * host serves the same output. `base: './'` keeps asset URLs relative so the bundle loads from file:// and
 * from the loopback host alike (the app routes inside the page, never by path).
 */
export const rendererConfig: UserConfig = {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    target: 'chrome120',
  },
};

export default defineConfig(rendererConfig);
