/**
 * `npm run mcp [-- --data-dir DIR]`: the local MCP server from a checkout (tsx, the system's Node).
 * The installed app starts the same server from its own executable (`learning-desktop --mcp`,
 * electron/main/mcp-mode.ts). The data folder: --data-dir, else LEARNING_DESKTOP_DATA_DIR, else the
 * installed app's (Electron's userData).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { runStdioServer } from './stdio';

export function appDataDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  const name = 'Learning Desktop';
  if (platform === 'win32')
    return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), name);
}

export function dataDirFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const i = argv.indexOf('--data-dir');
  const inline = argv.find((a) => a.startsWith('--data-dir='));
  if (inline) return resolve(inline.slice('--data-dir='.length));
  if (i >= 0 && argv[i + 1]) return resolve(argv[i + 1]!);
  return env['LEARNING_DESKTOP_DATA_DIR'] ?? appDataDir(env);
}

await runStdioServer({
  dataDir: dataDirFromArgs(process.argv.slice(2), process.env),
  version: process.env['npm_package_version'] ?? '0.0.0-dev',
});
