/**
 * The floor of a cold start's Node side (test/bench/startup.bench.ts): plain Node opens the offline
 * database read-only and reads the library's first page, the query behind the first course card,
 * then exits. Bundled with esbuild before it is run, like the browser host.
 */
import { getLibraryPage, openReadConnection } from '../../../electron/core/db';

const db = openReadConnection(process.argv[2]!);
const page = getLibraryPage(db, process.argv[3]!, new Date(), { offset: 0, limit: 50 });
if (page.items.length === 0) process.exitCode = 1;
db.close();
