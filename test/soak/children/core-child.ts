/**
 * Soak child for (c) and (d): the real app core on a data dir, driven through its public handlers
 * only (the same calls the renderer makes), so it keeps working whatever the core does inside (the
 * sync's writes run in a worker thread). argv: <dataDir> <siteId> sync <notificationId>   mark one
 * notification read (queued in the outbox), then sync
 *       <dataDir> <siteId> contend                   take the data dir, sync twice with a clock 3 h ahead (each
 *                                                    sync needs a refresh), report the site's status
 */
import { DataDirInUseError } from '../../../electron/core/data-dir-lock';
import { createTestCore } from '../../helpers/test-core';

const [dataDir, siteId, mode, notificationId] = process.argv.slice(2) as [
  string,
  string,
  'sync' | 'contend',
  string | undefined,
];
const send = (m: Record<string, unknown>): Promise<void> =>
  new Promise((resolve) => process.send!(m, () => resolve()));

let core;
try {
  core = await createTestCore({
    dataDir,
    version: '0.0.0-soak',
    openExternal: async () => undefined,
    ...(mode === 'contend' ? { clock: { now: () => Date.now() + 3 * 60 * 60 * 1000 } } : {}),
  });
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  await send({ type: 'refused', holder: error.holder.pid });
  process.exit(0);
}
await send({ type: 'locked', pid: process.pid });

if (mode === 'sync') {
  const marked = await core.handlers['notifications:mark-read']({
    siteId,
    notificationId: notificationId!,
  });
  await send({ type: 'queued', ok: marked.ok, code: marked.ok ? null : marked.error.code });
  const synced = await core.handlers['sync:now']({ siteId });
  await send({ type: 'synced', ok: synced.ok, code: synced.ok ? null : synced.error.code });
} else {
  // Holds the folder until the parent has heard from both processes, so their attempts always
  // overlap.
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const results: (string | null)[] = [];
  for (let i = 0; i < 2; i++) {
    const synced = await core.handlers['sync:now']({ siteId });
    results.push(synced.ok ? null : synced.error.code);
  }
  const site = (await core.handlers['sites:list'](undefined)) as {
    ok: true;
    value: { id: string; status: string }[];
  };
  await send({
    type: 'done',
    errors: results,
    status: site.value.find((s) => s.id === siteId)?.status ?? 'missing',
  });
}
await core.close();
process.exit(0);
