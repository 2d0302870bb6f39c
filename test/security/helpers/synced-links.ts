import type { ReadableDB } from '../../../electron/core/db';
import { onTestFinished } from 'vitest';
import { createSyncService } from '../../../electron/core/sync';
import { openWorkerDb } from '../../core/sync/helpers/setup';
import { startHostileSite, type HostileSite } from './hostile-site';

/**
 * A hostile site whose products and event registrations carry the links given: the first node of
 * each gets `first`, the others take `others` in turn (downloadUrl for products, joinUrl for
 * registrations). Synced through the real sync service and writer; the database is returned for the
 * views to read.
 */
export async function syncLinks(
  first: string,
  others: readonly string[],
): Promise<{ site: HostileSite; db: ReadableDB; outcome: string }> {
  const site = await startHostileSite();
  site.takeOver(async (req, res, forward) => {
    if (req.operation !== 'SyncDigitalProducts' && req.operation !== 'SyncEventRegistrations')
      return false;
    const answer = JSON.parse((await forward()).body.toString('utf8')) as {
      data: { viewer: Record<string, { nodes: Record<string, unknown>[] }> };
    };
    const [field, nodes] =
      req.operation === 'SyncDigitalProducts'
        ? ['downloadUrl', answer.data.viewer.digitalProducts!.nodes]
        : ['joinUrl', answer.data.viewer.eventRegistrations!.nodes];
    nodes.forEach((n, i) => (n[field] = i === 0 ? first : others[i % others.length]));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    return true;
  });
  const { db, writer } = await openWorkerDb();
  const sync = createSyncService({ db, writer, clientFor: () => site.client });
  onTestFinished(() => sync.close());
  const outcome = (await sync.syncNow('hostile')).outcome;
  return { site, db, outcome };
}
