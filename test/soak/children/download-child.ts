/**
 * Child of soak (f): the download manager on argv[2]'s data folder, saving three products from the
 * parent's file server (argv[3]); it resumes whatever an earlier (killed) child left. Says
 * 'started', then 'done' when all three are saved. The parent kills it with SIGKILL at a random
 * moment.
 */
import { managerFor, product, SITE } from '../../core/helpers/file-server';

const [dataDir, origin] = process.argv.slice(2) as [string, string];
const send = (m: unknown) => process.send?.(m);
const ids = ['a', 'b', 'c'];
const { manager } = await managerFor(
  dataDir,
  origin,
  () => ids.map((id) => product(id, `${origin}/${id}.pdf`)),
  {
    durableEveryMs: 100,
    retryDelaysMs: [50, 100, 200, 400],
  },
);
send({ type: 'started' });
for (const id of ids) await manager.save(SITE, id);
await manager.idle();
const saved = manager.list(SITE).filter((v) => v.saved !== null).length;
send({ type: 'done', saved });
await manager.close();
process.exit(0);
