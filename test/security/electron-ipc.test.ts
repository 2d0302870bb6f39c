/**
 * The Electron host's one ipcMain file (electron/main/ipc.ts), with `electron` replaced by a
 * recording ipcMain:
 * a handler that throws with a token in scope answers the masked internal error, the host's log
 * line names the error only, and an untrusted sender gets a refusal without running anything.
 */
import { describe, expect, it, vi } from 'vitest';
import type { IpcHandlers } from '../../electron/common/ipc-contract';
import { ok } from '../../electron/common/result';
import type { AppCore } from '../../electron/core/app-core';
import { rememberSecrets } from '../../electron/core/log';
import { leaksIn, SecretBag } from './helpers/canary';

type Handle = (
  event: { sender: unknown; senderFrame?: { url: string } },
  input: unknown,
) => Promise<unknown>;
const registered = new Map<string, Handle>();
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Handle) => registered.set(channel, fn),
    removeHandler: (channel: string) => registered.delete(channel),
  },
}));

describe('Electron host IPC: errors with a token in scope', () => {
  it('masks the Result, logs the error name only, and refuses untrusted senders', async () => {
    const { registerIpcHandlers } = await import('../../electron/main/ipc');
    const token = `at_${'Z'.repeat(24)}${Date.now()}`;
    const held = `rt_${'Y'.repeat(24)}${Date.now()}`;
    rememberSecrets(held);
    const bag = new SecretBag();
    bag.add('access_token', token);
    bag.add('refresh_token', held);
    let ran = 0;
    const handlers = {
      'app:get-info': async () => {
        ran++;
        throw new Error(`boom ${token}`, { cause: new Error(token) });
      },
      'sites:list': async () => {
        ran++;
        throw new TypeError(`Bearer ${token}`);
      },
      // A site's text quoting a token the app holds, in an ok Result: masked at the boundary.
      'settings:get': async () => (ran++, ok({ note: `the site said ${held}` })),
    } as unknown as IpcHandlers;
    const lines: string[] = [];
    let trusted = true;
    const unregister = registerIpcHandlers(
      { handlers } as AppCore,
      () => trusted,
      (l) => lines.push(l),
    );
    const event = { sender: {}, senderFrame: { url: 'file:///index.html' } };
    const answers = [];
    for (const c of ['app:get-info', 'sites:list', 'settings:get'])
      answers.push(await registered.get(c)!(event, undefined));
    expect(answers[0]).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(answers[1]).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(answers[2])).toContain('[redacted]');
    expect(lines).toEqual([
      'ipc: app:get-info failed unexpectedly: Error',
      'ipc: sites:list failed unexpectedly: TypeError',
    ]);
    trusted = false;
    expect(await registered.get('app:get-info')!(event, undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(ran).toBe(3);
    expect(leaksIn(bag, JSON.stringify(answers) + lines.join('\n'))).toEqual([]);
    unregister();
    expect(registered.size).toBe(0);
  });
});
