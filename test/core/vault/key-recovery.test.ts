import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { isCoreError } from '../../../electron/core/errors';
import { createNodeCipher } from '../../../electron/core/vault/cipher';
import type { Harness } from '../auth/helpers/harness';
import { createHarness } from '../auth/helpers/harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a damaged vault key never stops the app', () => {
  it('an empty key file with saved sign-ins: the app opens, the site says its sign-in cannot be read, a new sign-in works', async () => {
    const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    cleanups.push(() => server.close());
    const h: Harness = await createHarness();
    cleanups.push(() => h.close());
    const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    expect(h.manager.getSite(site.id)?.status).toBe('ready');
    await h.manager.close();

    // What a crash between creating and writing the key used to leave behind.
    const keyFile = join(h.dir, 'vault.key');
    await writeFile(keyFile, Buffer.alloc(0));
    const cipher = await createNodeCipher(keyFile);
    expect(cipher.keyReplaced).toBe(true);
    const manager = await h.reopen({ cipher });
    expect(manager.getSite(site.id)).toMatchObject({
      status: 'sign-in-needed',
      signInUnreadable: true,
    });
    await expect(manager.getAccessToken(site.id)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );

    await manager.signIn(site.id);
    const after = manager.getSite(site.id);
    expect(after?.status).toBe('ready');
    expect(after?.signInUnreadable).toBeUndefined();
    const res = await manager.fetchFor(site.id)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
  });
});
