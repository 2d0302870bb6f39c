import { basename, join } from 'node:path';
import type { CoreHandlers } from '../../common/ipc-contract';
import { buildArchive } from '../export/archive';
import { writeArchiveFolder } from '../export/archive-write';
import { localTimeZone } from '../export/dates';
import { safeFileName } from '../export/service';
import { requireSite, type AppServices } from './services';

export interface ArchiveHost {
  /** Where archives go: the app's Archives folder in its data folder. */
  readonly parent: string;
  readonly timeZone?: string | undefined;
  /** Shows the finished folder in the file manager (Electron); null where the host cannot. */
  readonly reveal: ((path: string) => void | Promise<void>) | null;
}

/**
 * One school's archive, built from the saved copy and written atomically (export/archive-write.ts).
 */
export function createArchiveHandlers(
  s: Pick<AppServices, 'db' | 'sites' | 'clock'>,
  host: ArchiveHost,
): Pick<CoreHandlers, 'archive:site'> {
  return {
    'archive:site': async ({ siteId, language }) => {
      const site = requireSite(s, siteId);
      const now = new Date(s.clock.now());
      const files = buildArchive(s.db, siteId, {
        language,
        timeZone: host.timeZone ?? localTimeZone(),
        site: { label: site.label, baseUrl: site.baseUrl },
        now,
      });
      const stem = safeFileName(
        `${new URL(site.baseUrl).hostname}-archive-${now.toISOString().slice(0, 10)}`,
        'x',
      ).replace(/\.x$/, '');
      const folder = await writeArchiveFolder(join(host.parent), stem, files);
      await host.reveal?.(join(folder, 'index.html'));
      return { folder: basename(folder), files: files.length };
    },
  };
}
