/**
 * Child process for the crash-output test: a real core signs in to a real embedded site (scripted
 * browser), tells the parent the token values it saw on the wire (over IPC, never on stdout), then
 * crashes with a token in scope:
 * an uncaught CoreError whose cause quotes the token, or an unhandled rejection with the token in
 * its message. argv: <mode: guarded|unguarded> <kind: uncaught|rejection>
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreError } from '../../../electron/core/errors';
import { createLogger, installCrashGuards } from '../../../electron/core/log';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import { createRecordingFetch } from './canary';
import { createTestCore } from '../../helpers/test-core';

const [mode, kind] = process.argv.slice(2) as ['guarded' | 'unguarded', 'uncaught' | 'rejection'];
// What the hosts do first thing (the Electron host and the browser host's CLI print to the
// console).
if (mode === 'guarded') installCrashGuards(process, (line) => console.error(line));

const wire = createRecordingFetch();
const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
const core = await createTestCore({
  dataDir: mkdtempSync(join(tmpdir(), 'ld-sec-crash-')),
  version: '0.0.0-security',
  fetch: wire.fetch,
  // The hosts' console logger (warnings and errors go to stderr).
  logger: createLogger((line) => console.error(line)),
  openExternal: async (url) => {
    const redirect = new URL(url).searchParams.get('redirect_uri')!;
    void new ScriptedBrowser()
      .authorize(url, { stopAt: redirect })
      .then((callback) => fetch(callback).then((r) => r.text()));
  },
});
const added = await core.handlers['sites:add']({ baseUrl: server.url, clientId: 'demo-desktop' });
if (!added.ok) throw new Error('add failed');
const signedIn = await core.handlers['sites:sign-in']({ siteId: added.value.id });
if (!signedIn.ok) throw new Error('sign-in failed');
const token = wire.secrets.of('access_token')[0]!;
process.send?.({ type: 'secrets', values: wire.secrets.list().map((s) => s.value) });
await new Promise<void>((resolve) => process.send?.({ type: 'ready' }, () => resolve()));

if (kind === 'uncaught') {
  setTimeout(() => {
    throw new CoreError(
      'server-error',
      'The site answered with an error.',
      { status: 500 },
      { cause: new Error(`site said: bad token ${token}`) },
    );
  }, 0);
} else {
  void Promise.reject(new Error(`refresh failed for Bearer-less ${token}`));
  // Give the guard (or Node's default) time to print, then end cleanly in the guarded case.
  setTimeout(() => {
    void core
      .close()
      .then(() => server.close())
      .then(() => process.exit(0));
  }, 200);
}
