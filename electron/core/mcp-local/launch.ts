import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpLaunch } from './clients';

/**
 * How a client starts the server when the host names no launch of its own (the browser host, tests,
 * a checkout): this Node with tsx's loader (tsx/dist/loader.mjs, what `node --import tsx` loads) on
 * cli.ts, and the data folder named. The Electron host names its own executable with --mcp
 * (electron/main/host.ts).
 */
export function checkoutLaunch(dataDir: string): McpLaunch {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const loader = resolve(cli, '../../../../node_modules/tsx/dist/loader.mjs');
  return {
    command: process.execPath,
    args: ['--import', pathToFileURL(loader).href, cli, '--data-dir', dataDir],
  };
}
