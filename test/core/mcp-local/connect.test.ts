/**
 * The connect buttons and the connection check, through the core's dispatcher as the settings
 * screen calls them, with a temporary home holding the clients' files.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AppCore } from '../../../electron/core/app-core';
import { configPath } from '../../../electron/core/mcp-local/clients';
import type { Channel } from '../../../electron/common/ipc-contract';
import { createTestCore, invoke, valueOf, type ChannelArgs } from '../../helpers/test-core';

let dir: string;
let home: string;
let core: AppCore;
const places = () => ({ home, platform: 'linux' as const, env: {} });
const launch = { command: process.execPath, args: ['--mcp'] };
const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
  valueOf(await invoke(core.handlers, channel, ...input));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-mcp-connect-'));
  home = join(dir, 'home');
  core = await createTestCore({
    dataDir: join(dir, 'data'),
    mcpLaunch: launch,
    assistantPlaces: places(),
  });
});

afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

describe('connect in one step', () => {
  test('the preview shows the exact file and command, and writes nothing', async () => {
    const preview = (await call('assistant:connect-preview', { client: 'vscode' })) as {
      path: string;
      json: string;
      command: string;
    };
    expect(preview.path).toBe(join(home, '.config', 'Code', 'User', 'mcp.json'));
    expect(JSON.parse(preview.json)).toEqual({
      servers: {
        'learning-desktop': { type: 'stdio', command: process.execPath, args: ['--mcp'] },
      },
    });
    expect(preview.command).toContain('code --add-mcp');
    expect(existsSync(preview.path)).toBe(false);
  });

  test("Claude Desktop's file is merged with what was there, a copy kept aside", async () => {
    const path = configPath('claude-desktop', places());
    const before = JSON.stringify({
      globalShortcut: 'Ctrl+Space',
      mcpServers: { other: { command: 'other-server', args: [] } },
    });
    write(path, before);
    const preview = (await call('assistant:connect-preview', { client: 'claude-desktop' })) as {
      json: string;
    };
    const done = (await call('assistant:connect', { client: 'claude-desktop' })) as {
      backup: string;
    };
    expect(readFileSync(done.backup, 'utf8')).toBe(before);
    expect(readFileSync(path, 'utf8')).toBe(preview.json);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        other: { command: 'other-server', args: [] },
        'learning-desktop': { command: process.execPath, args: ['--mcp'] },
      },
    });
    const view = await call('assistant:get');
    expect(view.clients.find((c) => c.client === 'claude-desktop')!.connected).toBe(true);
  });

  test('a file with comments is left as it was, and the student is told to paste the entry', async () => {
    const path = configPath('vscode', places());
    const before = '// my servers\n{ "servers": {} }\n';
    write(path, before);
    const result = await invoke(core.handlers, 'assistant:connect', { client: 'vscode' });
    expect(result.ok).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const view = await call('assistant:get');
    expect(view.checks.map((c) => c.finding)).toContain('configUnreadable');
  });

  test('the connection check names a wrong path, the feature off and a copy never synced', async () => {
    write(
      configPath('cursor', places()),
      JSON.stringify({
        mcpServers: { 'learning-desktop': { command: join(dir, 'moved', 'app') } },
      }),
    );
    const view = await call('assistant:get');
    expect(view.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ client: null, finding: 'featureOff' }),
        expect.objectContaining({ client: null, finding: 'neverSynced' }),
        expect.objectContaining({
          client: 'cursor',
          finding: 'wrongPath',
          detail: join(dir, 'moved', 'app'),
        }),
      ]),
    );
  });

  test('turning the feature off takes its entry out of every file, other servers stay', async () => {
    await call('assistant:update', { cloudAcknowledged: true });
    await call('assistant:update', { enabled: true });
    await call('assistant:connect', { client: 'cursor' });
    const path = configPath('cursor', places());
    const withOther = JSON.parse(readFileSync(path, 'utf8')) as {
      mcpServers: Record<string, unknown>;
    };
    withOther.mcpServers['other'] = { command: 'x' };
    write(path, JSON.stringify(withOther));
    const view = (await call('assistant:update', { enabled: false })) as { enabled: boolean };
    expect(view.enabled).toBe(false);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      mcpServers: { other: { command: 'x' } },
    });
    expect(existsSync(join(dir, 'data', 'ai-assistant.json'))).toBe(false);
  });

  test('on needs the acknowledgement that an assistant may send what it reads to its cloud', async () => {
    const off = (await call('assistant:update', { enabled: true })) as { enabled: boolean };
    expect(off.enabled).toBe(false);
    await call('assistant:update', { cloudAcknowledged: true });
    const on = (await call('assistant:update', { enabled: true })) as { enabled: boolean };
    expect(on.enabled).toBe(true);
  });
});
