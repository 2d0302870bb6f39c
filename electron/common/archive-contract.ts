/** The channel of a school's archive (core/export/archive.ts), spread into the one contract. */
import { z } from 'zod';

function channel<O>() {
  return <I extends z.ZodType>(input: I): { readonly input: I; readonly __output?: O } => ({
    input,
  });
}

export const archiveChannels = {
  /**
   * Writes one school's archive (index.html, archive.json, notes, receipts) as a folder in the
   * app's Archives folder, shown in the file manager where the host can; answers the folder's name
   * and how many files it has.
   */
  'archive:site': channel<ArchiveResult>()(
    z.object({ siteId: z.string().min(1).max(100), language: z.enum(['en', 'zh-TW']) }).strict(),
  ),
  /**
   * Stops the school's archive under way: its partial folder is removed, nothing with the
   * archive's name is left, and `archive:site` answers `cancelled`. False when none was under way.
   */
  'archive:cancel': channel<boolean>()(z.object({ siteId: z.string().min(1).max(100) }).strict()),
} as const;

export type ArchiveResult =
  | { readonly cancelled: false; readonly folder: string; readonly files: number }
  | { readonly cancelled: true };

/**
 * An archive under way (the `archive:progress` event): reading the saved copy, then writing its
 * files, `done` of `total`.
 */
export interface ArchiveProgress {
  readonly siteId: string;
  readonly stage: 'reading' | 'writing';
  readonly done: number;
  readonly total: number;
}
