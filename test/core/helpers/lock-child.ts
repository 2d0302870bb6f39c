/**
 * Child process for the data-dir lock tests: takes the lock of argv[2] (optionally through
 * createAppCore, like a host) and reports over IPC; it holds the lock until it is told to release,
 * or killed. argv: <dataDir> [lock|core]
 */
import { acquireDataDirLock, DataDirInUseError } from '../../../electron/core/data-dir-lock';
import { createTestCore } from '../../helpers/test-core';

const [dataDir, how = 'lock'] = process.argv.slice(2) as [string, 'lock' | 'core'];
const send = (m: unknown): Promise<void> =>
  new Promise((resolve) => process.send?.(m, () => resolve()));

try {
  let release: () => Promise<void>;
  if (how === 'core') {
    const core = await createTestCore({
      dataDir,
      version: '0.0.0-lock',
      openExternal: async () => undefined,
    });
    release = () => core.close();
  } else {
    const lock = await acquireDataDirLock(dataDir, { host: 'lock test child' });
    release = () => lock.release();
  }
  process.on('message', (m: { type: string }) => {
    if (m.type === 'release') void release().then(() => process.exit(0));
  });
  await send({ type: 'locked', pid: process.pid });
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  await send({
    type: 'refused',
    pid: process.pid,
    holder: error.holder.pid,
    message: error.message,
  });
  process.exit(0);
}
