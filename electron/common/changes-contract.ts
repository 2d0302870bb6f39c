/**
 * The channels of "Since you last looked" (core/db/change-record.ts), spread into the one contract.
 */
import { z } from 'zod';
import type { ChangeGroup } from './view-models';

function channel<O>() {
  return <I extends z.ZodType>(input: I): { readonly input: I; readonly __output?: O } => ({
    input,
  });
}

export const changeChannels = {
  /**
   * What changed at the syncs since Today last showed it, every school in the app's order, newest
   * first.
   */
  'changes:unseen': channel<ChangeGroup[]>()(z.undefined()),
  /** Today showed the changes up to this id: they are seen (of every school, or of one). */
  'changes:mark-seen': channel<{ seen: number }>()(
    z
      .object({ upTo: z.number().int().min(0), siteId: z.string().min(1).max(100).optional() })
      .strict(),
  ),
} as const;
