import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The renderer's one build config. electron.vite.config.ts reuses it for the Electron window; the
 * browser host serves the same output. `base: './'` keeps asset URLs relative so the bundle loads
 * from file:// and from the loopback host alike (the app routes inside the page, never by path).
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
    rollupOptions: {
      output: {
        // The libraries (React, TanStack, i18next, icons) change far less often than the app: a
        // chunk of their own keeps each chunk well under Vite's 500 kB warning as the app grows.
        // Each language's strings are split by their lazy import (renderer/src/i18n).
        manualChunks: (id) => (id.includes('/node_modules/') ? 'vendor' : undefined),
      },
    },
  },
};

export default defineConfig(rendererConfig);
