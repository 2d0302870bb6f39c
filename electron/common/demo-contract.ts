/**
 * The demo mode's channels (forbidden outside it), part of the one contract (ipc-contract.ts
 * spreads them in); the shape of each entry is ipc-contract's ChannelSpec.
 */
import { z } from 'zod';
import {
  DEMO_CLOCK_SKEW_CHOICES_MIN,
  DEMO_DOWNLOAD_FAULTS,
  DEMO_LATENCY_CHOICES_MS,
  type DemoFaultsView,
} from './demo-faults';

function channel<O>() {
  return <I extends z.ZodType>(input: I): { readonly input: I; readonly __output?: O } => ({
    input,
  });
}

const none = z.undefined();

export const demoChannels = {
  /** Demo mode only (forbidden otherwise): the demo sites' fault switches (Settings > Demo). */
  'demo:faults': channel<DemoFaultsView>()(none),
  'demo:set-faults': channel<DemoFaultsView>()(
    z
      .object({
        offline: z.boolean().optional(),
        latencyMs: z.union(DEMO_LATENCY_CHOICES_MS.map((v) => z.literal(v))).optional(),
        memberApiUnavailable: z.boolean().optional(),
        refreshRefused: z.boolean().optional(),
        clockSkewMinutes: z.union(DEMO_CLOCK_SKEW_CHOICES_MIN.map((v) => z.literal(v))).optional(),
        download: z.enum(DEMO_DOWNLOAD_FAULTS).optional(),
      })
      .strict(),
  ),
  'demo:rotate-signing-key': channel<DemoFaultsView>()(none),
} as const;
