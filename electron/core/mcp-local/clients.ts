/**
 * Connect in one step: where Claude Desktop, VS Code and Cursor keep their MCP servers, the entry
 * this app adds, and the merge that writes it. Nothing is written before the student has seen the
 * exact JSON (preview), the file is replaced atomically, and a file that was there is copied aside
 * first. A file that is not plain JSON (VS Code's mcp.json may hold comments) is never rewritten:
 * the student is shown what to paste instead.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file';
import type { AssistantClientId } from '../../common/assistant';
import { CoreError } from '../errors';

export { ASSISTANT_CLIENTS } from '../../common/assistant';
export type AssistantClient = AssistantClientId;

/** The name of this app's entry in every client's file. */
export const SERVER_KEY = 'learning-desktop';

/**
 * How a client starts the server: the app's own executable with --mcp (or, from a checkout, tsx).
 */
export interface McpLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the server needs (from a checkout: the SQLite addon built for Electron). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface ClientPlaces {
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** APPDATA on Windows, XDG_CONFIG_HOME elsewhere. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Each client's own user-level file (their documentation's places). */
export function configPath(client: AssistantClient, p: ClientPlaces): string {
  const appData = p.env['APPDATA'] ?? join(p.home, 'AppData', 'Roaming');
  const xdg = p.env['XDG_CONFIG_HOME'] ?? join(p.home, '.config');
  const macSupport = join(p.home, 'Library', 'Application Support');
  switch (client) {
    case 'claude-desktop':
      if (p.platform === 'win32') return join(appData, 'Claude', 'claude_desktop_config.json');
      if (p.platform === 'darwin') return join(macSupport, 'Claude', 'claude_desktop_config.json');
      return join(xdg, 'Claude', 'claude_desktop_config.json');
    case 'vscode':
      if (p.platform === 'win32') return join(appData, 'Code', 'User', 'mcp.json');
      if (p.platform === 'darwin') return join(macSupport, 'Code', 'User', 'mcp.json');
      return join(xdg, 'Code', 'User', 'mcp.json');
    case 'cursor':
      return join(p.home, '.cursor', 'mcp.json');
  }
}

/**
 * VS Code names its servers under "servers" with a type; Claude Desktop and Cursor under
 * "mcpServers".
 */
const sectionOf = (client: AssistantClient) => (client === 'vscode' ? 'servers' : 'mcpServers');

export function entryFor(client: AssistantClient, launch: McpLaunch): Record<string, unknown> {
  const base = {
    command: launch.command,
    args: [...launch.args],
    ...(launch.env ? { env: { ...launch.env } } : {}),
  };
  return client === 'vscode' ? { type: 'stdio', ...base } : base;
}

export interface ConnectPreview {
  readonly client: AssistantClient;
  readonly path: string;
  /** The file's text as it will be written. */
  readonly json: string;
  /** The entry alone, to paste by hand. */
  readonly entry: string;
  /** The one command that does the same, where the client has one (VS Code: code --add-mcp). */
  readonly command: string | null;
  readonly fileExists: boolean;
  /** Already there with this very entry. */
  readonly connected: boolean;
}

type ReadConfig =
  | { readonly kind: 'missing' }
  | { readonly kind: 'json'; readonly value: Record<string, unknown>; readonly text: string }
  | { readonly kind: 'unreadable' };

export async function readConfig(path: string): Promise<ReadConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? { kind: 'missing' }
      : { kind: 'unreadable' };
  }
  if (text.trim() === '') return { kind: 'json', value: {}, text };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { kind: 'unreadable' };
    return { kind: 'json', value: value as Record<string, unknown>, text };
  } catch {
    return { kind: 'unreadable' };
  }
}

/** The entry this app wrote in a client's file, or null. */
export function entryIn(client: AssistantClient, value: Record<string, unknown>): unknown {
  const section = value[sectionOf(client)];
  if (section === null || typeof section !== 'object') return null;
  return (section as Record<string, unknown>)[SERVER_KEY] ?? null;
}

function merged(
  client: AssistantClient,
  value: Record<string, unknown>,
  entry: Record<string, unknown> | null,
): Record<string, unknown> {
  const key = sectionOf(client);
  const old = value[key];
  const section: Record<string, unknown> =
    old !== null && typeof old === 'object' && !Array.isArray(old) ? { ...old } : {};
  if (entry === null) delete section[SERVER_KEY];
  else section[SERVER_KEY] = entry;
  return { ...value, [key]: section };
}

export async function previewConnect(
  client: AssistantClient,
  launch: McpLaunch,
  places: ClientPlaces,
): Promise<ConnectPreview> {
  const path = configPath(client, places);
  const read = await readConfig(path);
  const entry = entryFor(client, launch);
  const base = read.kind === 'json' ? read.value : {};
  const command =
    client === 'vscode'
      ? `code --add-mcp ${shellQuote(JSON.stringify({ name: SERVER_KEY, ...entry }))}`
      : null;
  return {
    client,
    path,
    json: `${JSON.stringify(merged(client, base, entry), null, 2)}\n`,
    entry: JSON.stringify({ [SERVER_KEY]: entry }, null, 2),
    command,
    fileExists: read.kind !== 'missing',
    connected:
      read.kind === 'json' && JSON.stringify(entryIn(client, read.value)) === JSON.stringify(entry),
  };
}

/**
 * Writes the entry into the client's file: the file as it was is copied to `<file>.bak` first, the
 * new one replaces it atomically (temp file, fsync, rename). Answers where the copy went (null:
 * there was no file).
 */
export async function connectClient(
  client: AssistantClient,
  launch: McpLaunch,
  places: ClientPlaces,
): Promise<{ path: string; backup: string | null }> {
  return rewrite(client, places, entryFor(client, launch));
}

/** Takes this app's entry out again (turning the feature off); other servers in the file stay. */
export async function disconnectClient(
  client: AssistantClient,
  places: ClientPlaces,
): Promise<{ path: string; backup: string | null } | null> {
  const read = await readConfig(configPath(client, places));
  if (read.kind !== 'json' || entryIn(client, read.value) === null) return null;
  return rewrite(client, places, null);
}

async function rewrite(
  client: AssistantClient,
  places: ClientPlaces,
  entry: Record<string, unknown> | null,
): Promise<{ path: string; backup: string | null }> {
  const path = configPath(client, places);
  const read = await readConfig(path);
  if (read.kind === 'unreadable')
    throw new CoreError(
      'storage-error',
      `${path} is not plain JSON (it may hold comments), so it was left as it is. Add the entry shown by hand.`,
    );
  let backup: string | null = null;
  if (read.kind === 'json') {
    backup = `${path}.bak`;
    await copyFile(path, backup);
  }
  const next = merged(client, read.kind === 'json' ? read.value : {}, entry);
  await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, 0o600);
  return { path, backup };
}

/** A POSIX shell word (the command shown is for a terminal; Windows users get the JSON too). */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
