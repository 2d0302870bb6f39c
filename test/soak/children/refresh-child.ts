/**
 * Soak child (b): opens a signed-in data dir like a host (data-dir lock, Node key-file cipher, site
 * manager), reports what it found (vault readable? site status? temp files left?), then refreshes
 * the site's tokens in a loop until the parent kills it with SIGKILL. Its clock runs three hours
 * ahead, so every call needs a refresh. argv: <dataDir> <siteId>
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireDataDirLock } from '../../../electron/core/data-dir-lock';
import { isCoreError } from '../../../electron/core/errors';
import { createSiteManager } from '../../../electron/core/sites/site-manager';
import { createNodeCipher } from '../../../electron/core/vault/cipher';
import { createVault } from '../../../electron/core/vault/vault';

const [dataDir, siteId] = process.argv.slice(2) as [string, string];
const send = (m: Record<string, unknown>): Promise<void> =>
  new Promise((resolve) => process.send!(m, () => resolve()));

let tempFiles = 0;
try {
  tempFiles = readdirSync(join(dataDir, 'vault')).filter((n) => n.endsWith('.tmp')).length;
} catch {
  tempFiles = 0;
}
const lock = await acquireDataDirLock(dataDir, { host: 'soak refresh child' });
const cipher = await createNodeCipher(join(dataDir, 'vault.key'));
let readable = true;
let hasPair = false;
try {
  const record = await createVault({ dir: join(dataDir, 'vault'), cipher }).get(siteId);
  hasPair = record !== null && record.refreshToken !== null;
} catch {
  readable = false;
}
const clock = { now: () => Date.now() + 3 * 60 * 60 * 1000 };
const manager = await createSiteManager({ dataDir, cipher, clock, openExternal: () => undefined });
const status = manager.getSite(siteId)?.status ?? 'missing';
let first: { ok: boolean; code: string | null };
try {
  await manager.getAccessToken(siteId);
  first = { ok: true, code: null };
} catch (error) {
  first = { ok: false, code: isCoreError(error) ? error.code : 'unexpected' };
}
await send({
  type: 'ready',
  readable,
  hasPair,
  status,
  tempFiles,
  keyReplaced: cipher.keyReplaced === true,
  first,
});
if (process.argv[4] === 'once') {
  await manager.close();
  await lock.release();
  process.exit(0);
}
await send({ type: 'refreshing' });
let refreshes = 0;
for (;;) {
  await manager.getAccessToken(siteId);
  refreshes++;
  if (refreshes % 10 === 0) process.send!({ type: 'count', refreshes });
}
