/**
 * The Claude Desktop bundle (.mcpb) through the core's dispatcher as the settings screen asks for
 * it: the preview is the manifest written, and the saved zip holds manifest.json and the icon, its
 * server the app's executable with --mcp (MCPB MANIFEST.md, manifest 0.3).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AppCore } from '../../../electron/core/app-core';
import type { ExportFile } from '../../../electron/core/export/service';
import { CHECKOUT_ICON } from '../../../electron/core/mcp-local/bundle';
import type { Channel } from '../../../electron/common/ipc-contract';
import { createTestCore, invoke, valueOf, type ChannelArgs } from '../../helpers/test-core';

let dir: string;
let core: AppCore;
let saved: ExportFile[];
const launch = { command: '/opt/Learning Desktop/learning-desktop', args: ['--mcp'] };
const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
  valueOf(await invoke(core.handlers, channel, ...input));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-mcp-bundle-'));
  saved = [];
  core = await createTestCore({
    dataDir: join(dir, 'data'),
    mcpLaunch: launch,
    assistantPlaces: { home: join(dir, 'home'), platform: 'linux', env: {} },
    deliverFile: async (file) => {
      saved.push(file);
      return { kind: 'saved', fileName: file.fileName };
    },
  });
});

afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every entry of a zip, read by yauzl (a reader this app does not use itself). */
function unzip(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('the preview is the manifest: a binary server, the app executable with --mcp', async () => {
  const preview = await call('assistant:bundle-preview');
  expect(preview.fileName).toBe('learning-desktop.mcpb');
  expect(preview.files).toEqual(['manifest.json', 'icon.png']);
  const manifest = JSON.parse(preview.manifest) as Record<string, unknown>;
  // MANIFEST.md "Required Fields".
  expect(manifest).toMatchObject({
    manifest_version: '0.3',
    name: 'learning-desktop',
    author: { name: 'Learning Desktop' },
    icon: 'icon.png',
    server: {
      type: 'binary',
      entry_point: launch.command,
      mcp_config: { command: launch.command, args: ['--mcp'] },
    },
    compatibility: { platforms: ['linux'] },
  });
  expect(manifest['version']).toMatch(/^\d+\.\d+\.\d+/);
  expect(typeof manifest['description']).toBe('string');
  expect(saved).toEqual([]);
});

test('the saved bundle is a zip of the previewed manifest and the app icon', async () => {
  const preview = await call('assistant:bundle-preview');
  expect(await call('assistant:save-bundle')).toEqual({
    kind: 'saved',
    fileName: 'learning-desktop.mcpb',
  });
  expect(saved).toHaveLength(1);
  const file = saved[0]!;
  expect(file).toMatchObject({ kind: 'mcpb', mimeType: 'application/zip' });
  const files = await unzip(file.bytes!);
  expect([...files.keys()]).toEqual(['manifest.json', 'icon.png']);
  expect(files.get('manifest.json')!.toString('utf8')).toBe(preview.manifest);
  expect(files.get('icon.png')!.equals(readFileSync(CHECKOUT_ICON))).toBe(true);
  // The same files make the same bytes: the entries carry one fixed time.
  await call('assistant:save-bundle');
  expect(Buffer.from(saved[1]!.bytes!).equals(Buffer.from(file.bytes!))).toBe(true);
});
