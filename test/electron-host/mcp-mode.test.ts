import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltApp } from '../helpers/built-app';
import { installStandIn } from '../helpers/electron-stand-in';
import { syncedDemo, type SyncedDemo } from '../helpers/test-core';
import { allow } from '../core/mcp-local/consent-fixture';

/**
 * `learning-desktop --mcp` through the built main bundle (the stand-in `electron` in plain Node,
 * which records every call the host makes as a line on stdout): the server answers on stdio, and
 * nothing of the window's start (sandbox, single-instance lock, protocol, window) runs, or its
 * record would break the protocol on stdout.
 */
const buildError = ensureBuiltApp();
let demo: SyncedDemo;
let work: string;
let client: Client;
const transportErrors: Error[] = [];

beforeAll(async () => {
  if (buildError) return;
  demo = await syncedDemo({ prefix: 'ld-mcp-mode-' });
  await allow(demo.dataDir, [demo.site.id]);
  work = mkdtempSync(join(tmpdir(), 'ld-mcp-mode-standin-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...installStandIn(work), resolve('out/main/index.js'), '--mcp'],
    env: { PATH: process.env['PATH'] ?? '', FAKE_USER_DATA: demo.dataDir },
    stderr: 'pipe',
  });
  client = new Client({ name: 'mcp-mode-test', version: '1' });
  client.onerror = (e) => transportErrors.push(e);
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await demo?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the app executable in --mcp mode', () => {
  it('was built', () => expect(buildError).toBeNull());

  it('answers on stdio beside the running app, without a window or the lock', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'learning-desktop', version: '9.9.9' });
    const r = await client.callTool({ name: 'list_schools', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { allowed: unknown[] }).allowed).toHaveLength(1);
    expect(transportErrors).toEqual([]);
  });
});
