/**
 * The Claude Desktop MCP Bundle (`.mcpb`, github.com/anthropics/mcpb MANIFEST.md, manifest 0.3): a
 * zip of manifest.json and the icon, whose server is this computer's app executable with --mcp
 * (`server.type` "binary", no runtime). The bundle carries no code and no data: Claude Desktop
 * starts the same executable the other clients' entries name, so the consent, the read-only copy
 * and the activity log are the same. A bundle made on one computer names that computer's app only.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { zip } from '../fs/zip';
import type { McpLaunch } from './clients';
import { SERVER_KEY } from './clients';

/** The manifest version the bundle follows (MANIFEST.md "Current version"). */
export const MCPB_MANIFEST_VERSION = '0.3';
export const BUNDLE_FILE_NAME = 'learning-desktop.mcpb';
export const BUNDLE_FILES = ['manifest.json', 'icon.png'] as const;

/** The app's own icon from a checkout; the packaged host names its copy (extraResources). */
export const CHECKOUT_ICON = fileURLToPath(new URL('../../../build/icon.png', import.meta.url));

export interface BundleInfo {
  /** The app's version (semver, MANIFEST.md "version"). */
  readonly version: string;
  readonly platform: NodeJS.Platform;
}

const PLATFORMS = new Set<string>(['darwin', 'win32', 'linux']);

export function bundleManifest(launch: McpLaunch, info: BundleInfo): Record<string, unknown> {
  return {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: SERVER_KEY,
    display_name: 'Learning Desktop',
    version: info.version,
    description:
      "Your courses, progress, dates and notices from Learning Desktop's offline copy on this computer, " +
      'only what you allow in Learning Desktop > Settings > AI assistant.',
    author: { name: 'Learning Desktop' },
    icon: 'icon.png',
    server: {
      type: 'binary',
      // The executable is the app installed on this computer, not a file inside the bundle.
      entry_point: launch.command,
      mcp_config: {
        command: launch.command,
        args: [...launch.args],
        ...(launch.env ? { env: { ...launch.env } } : {}),
      },
    },
    // Which tools and prompts are listed depends on the student's consent, read at each request.
    tools_generated: true,
    prompts_generated: true,
    keywords: ['courses', 'learning', 'offline'],
    ...(PLATFORMS.has(info.platform) ? { compatibility: { platforms: [info.platform] } } : {}),
  };
}

export interface BundlePreview {
  readonly fileName: string;
  /** manifest.json as it will be written. */
  readonly manifest: string;
  readonly files: readonly string[];
}

export function previewBundle(launch: McpLaunch, info: BundleInfo): BundlePreview {
  return {
    fileName: BUNDLE_FILE_NAME,
    manifest: `${JSON.stringify(bundleManifest(launch, info), null, 2)}\n`,
    files: [...BUNDLE_FILES],
  };
}

/** The bundle's bytes: the previewed manifest and the icon read from `iconPath`. */
export async function buildBundle(
  launch: McpLaunch,
  info: BundleInfo,
  iconPath: string,
): Promise<Buffer> {
  const { manifest } = previewBundle(launch, info);
  return await zip([
    { name: 'manifest.json', data: Buffer.from(manifest, 'utf8') },
    { name: 'icon.png', data: await readFile(iconPath) },
  ]);
}
