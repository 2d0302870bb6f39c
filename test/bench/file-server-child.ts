/**
 * Child process for downloads.bench.ts: the file server (test/core/helpers/file-server.ts) in its
 * own process, so its work is not charged to the app's event loop. argv: <size in bytes> [bytes
 * sent every 10 ms]. Sends { origin } once listening.
 */
import { pdfLike, startFileServer } from '../core/helpers/file-server';

const size = Number(process.argv[2]);
const server = await startFileServer();
if (process.argv[3]) server.throttle = Number(process.argv[3]);
server.files.set('/a.pdf', { body: pdfLike(size, 1), digest: 'right' });
server.files.set('/b.pdf', { body: pdfLike(size, 2), digest: 'right' });
process.send?.({ origin: server.origin });
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
