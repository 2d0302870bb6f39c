import { basename, join } from 'node:path';
import type { ArchiveProgress } from '../../common/archive-contract';
import type { CoreHandlers } from '../../common/ipc-contract';
import { buildArchive } from '../export/archive';
import { ArchiveCancelled, writeArchiveFolder } from '../export/archive-write';
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

/** As often as the downloads' progress: at most four events a second, and always the last file. */
export const ARCHIVE_PROGRESS_MS = 250;

export interface ArchiveRunsDeps {
  readonly now: () => number;
  readonly progress: (p: ArchiveProgress) => void;
}

/** The archives under way, one per school, each with the signal its cancel aborts. */
export class ArchiveRuns {
  readonly #deps: ArchiveRunsDeps;
  readonly #runs = new Map<string, AbortController>();

  constructor(deps: ArchiveRunsDeps) {
    this.#deps = deps;
  }

  /** Runs `work` as the school's archive; a second one for the same school stops the first. */
  async run<T>(siteId: string, work: (r: ArchiveRun) => Promise<T>): Promise<T> {
    this.#runs.get(siteId)?.abort();
    const controller = new AbortController();
    this.#runs.set(siteId, controller);
    let last = Number.NEGATIVE_INFINITY;
    const progress = (stage: ArchiveProgress['stage'], done: number, total: number) => {
      const now = this.#deps.now();
      if (done < total && now - last < ARCHIVE_PROGRESS_MS) return;
      last = now;
      this.#deps.progress({ siteId, stage, done, total });
    };
    try {
      return await work({ signal: controller.signal, progress });
    } finally {
      if (this.#runs.get(siteId) === controller) this.#runs.delete(siteId);
    }
  }

  cancel(siteId: string): boolean {
    const controller = this.#runs.get(siteId);
    controller?.abort();
    return controller !== undefined;
  }
}

interface ArchiveRun {
  readonly signal: AbortSignal;
  readonly progress: (stage: ArchiveProgress['stage'], done: number, total: number) => void;
}

/**
 * One school's archive, built from the saved copy and written atomically (export/archive-write.ts),
 * its progress told as `archive:progress` and stopped by `archive:cancel`.
 */
export function createArchiveHandlers(
  s: Pick<AppServices, 'db' | 'sites' | 'clock' | 'emit'>,
  host: ArchiveHost,
): Pick<CoreHandlers, 'archive:site' | 'archive:cancel'> {
  const runs = new ArchiveRuns({
    now: () => s.clock.now(),
    progress: (p) => s.emit('archive:progress', p),
  });
  return {
    'archive:site': async ({ siteId, language }) => {
      const site = requireSite(s, siteId);
      const now = new Date(s.clock.now());
      return runs.run(siteId, async ({ signal, progress }) => {
        progress('reading', 0, 1);
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
        let folder: string;
        try {
          folder = await writeArchiveFolder(
            join(host.parent),
            stem,
            files,
            (done, total) => progress('writing', done, total),
            signal,
          );
        } catch (error) {
          if (error instanceof ArchiveCancelled) return { cancelled: true } as const;
          throw error;
        }
        await host.reveal?.(join(folder, 'index.html'));
        return { cancelled: false, folder: basename(folder), files: files.length } as const;
      });
    },
    'archive:cancel': async ({ siteId }) => runs.cancel(siteId),
  };
}
