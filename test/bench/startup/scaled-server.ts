/**
 * Child process for test/bench/startup.bench.ts: the embedded server with the `large` seed
 * multiplied by argv[2] (1, 2, 4, 8: courses, payments and notifications; 60 lectures a course), in
 * its own process, plus a member token.
 */
import { createEmbeddedServer } from '../../../embedded-server/index';
import { DEFAULT_LARGE } from '../../../embedded-server/seed/content';
import { getMemberToken } from '../../core/sync/helpers/member-token';

const scale = Number(process.argv[2] ?? '1');
const large = {
  ...DEFAULT_LARGE,
  courses: DEFAULT_LARGE.courses * scale,
  payments: DEFAULT_LARGE.payments * scale,
  notifications: DEFAULT_LARGE.notifications * scale,
};
const server = await createEmbeddedServer({
  port: 0,
  seed: 'large',
  site: 'demo',
  seedOptions: { large },
});
const { accessToken } = await getMemberToken(server);
process.send?.({ type: 'ready', url: server.url, token: accessToken });
process.on('message', (m: { type?: string }) => {
  if (m.type === 'stop') void server.close().then(() => process.exit(0));
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
