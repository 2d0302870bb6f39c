import { app } from 'electron';
import { join } from 'node:path';
import type { McpLaunch } from '../core/mcp-local/clients';

/**
 * `learning-desktop --mcp`: the app's own executable as the student's MCP server (no window, no
 * lock).
 */
export const MCP_FLAG = '--mcp';

export const isMcpMode = (argv: readonly string[]): boolean => argv.includes(MCP_FLAG);

/**
 * The local MCP server in the installed app's own executable: the packaged app has the runAsNode
 * fuse off and the student may have no Node, so an assistant's client starts `<app> --mcp` and
 * speaks MCP on its stdio. No window, no single-instance lock (the app itself may be running), no
 * Dock icon; stdout carries only the protocol, so nothing here logs to the console. The server
 * chunk is loaded only in this mode.
 */
export async function startMcpMode(): Promise<void> {
  app.dock?.hide();
  const { runStdioServer } = await import('../core/mcp-local/stdio');
  // From a checkout, the addon built for this Electron (scripts/electron-native.mjs); a packaged
  // app has its own.
  const binding = app.isPackaged ? undefined : process.env['LEARNING_DESKTOP_SQLITE_BINDING'];
  await runStdioServer({
    dataDir: process.env['LEARNING_DESKTOP_DATA_DIR'] || app.getPath('userData'),
    version: app.getVersion(),
    ...(binding ? { nativeBinding: binding } : {}),
  });
}

/**
 * How an assistant's client starts this app as its server: the executable with --mcp. An AppImage
 * runs from a mount that changes at every start, so its own file (APPIMAGE) is named instead. From
 * a checkout: Electron on the checkout, with the SQLite addon built for it.
 */
export function mcpLaunch(sqliteBinding: string | undefined): McpLaunch {
  if (app.isPackaged)
    return { command: process.env['APPIMAGE'] || process.execPath, args: [MCP_FLAG] };
  return {
    command: process.execPath,
    args: [app.getAppPath(), MCP_FLAG],
    ...(sqliteBinding ? { env: { LEARNING_DESKTOP_SQLITE_BINDING: sqliteBinding } } : {}),
  };
}

/**
 * The icon the Claude Desktop bundle carries: build/icon.png, copied beside app.asar when packaged
 * (extraResources, as the tray's).
 */
export function mcpIcon(): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'tray.png')
    : join(app.getAppPath(), 'build', 'icon.png');
}
