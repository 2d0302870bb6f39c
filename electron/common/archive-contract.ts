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
  'archive:site': channel<{ folder: string; files: number }>()(
    z.object({ siteId: z.string().min(1).max(100), language: z.enum(['en', 'zh-TW']) }).strict(),
  ),
} as const;
