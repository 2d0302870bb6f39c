/**
 * Child process for the kill -9 tests: downloads one product into argv[2]'s data folder from
 * argv[3] (a file URL on the parent's server) and reports its progress over IPC, until the parent
 * kills it. argv: <dataDir> <origin> <path>
 */
import { managerFor, product, SITE } from './file-server';

const [dataDir, origin, path] = process.argv.slice(2) as [string, string, string];
const { manager } = await managerFor(dataDir, origin, () => [product('p1', `${origin}${path}`)], {
  onChange: (v) =>
    process.send?.({
      type: 'progress',
      bytes: v.job?.progress.bytes ?? 0,
      saved: v.saved !== null,
    }),
});
await manager.save(SITE, 'p1');
