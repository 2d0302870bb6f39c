/**
 * Child process for test/bench/sync.bench.ts: the embedded server with the `large` seed in its own
 * process (so its CPU does not count in the sync's event-loop delay), plus a member token, reported
 * to the parent over IPC.
 */
import { createEmbeddedServer } from '../../../../embedded-server/index';
import { getMemberToken } from './member-token';

const server = await createEmbeddedServer({ port: 0, seed: 'large', site: 'demo' });
const { accessToken } = await getMemberToken(server);
process.send?.({ type: 'ready', url: server.url, token: accessToken });
process.on('message', (m: { type?: string }) => {
  if (m.type === 'stop') void server.close().then(() => process.exit(0));
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
