/**
 * The AI assistant's channels (Settings > AI assistant, the "AI activity" view), spread into the
 * one contract (ipc-contract.ts). Inputs are checked here like every other channel's.
 */
import { z } from 'zod';
import {
  ASSISTANT_CATEGORIES,
  ASSISTANT_CLIENTS,
  type AssistantActivityView,
  type AssistantBundlePreview,
  type AssistantConnectPreview,
  type AssistantRequestView,
  type AssistantView,
} from './assistant';
import type { SaveOutcome } from './files-and-invites';

export interface AssistantChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly __output?: O;
}
const channel =
  <O>() =>
  <I extends z.ZodType>(input: I): AssistantChannelSpec<I, O> => ({ input });

const none = z.undefined();
const client = z.object({ client: z.enum(ASSISTANT_CLIENTS) }).strict();

export const assistantChannels = {
  /**
   * The consent, the schools, how a client starts the server, each client's file, and the
   * connection check.
   */
  'assistant:get': channel<AssistantView>()(none),
  /** One change of the consent (turning it off removes what the feature wrote). */
  'assistant:update': channel<AssistantView>()(
    z
      .object({
        enabled: z.boolean().optional(),
        cloudAcknowledged: z.boolean().optional(),
        fullPaymentCodes: z.boolean().optional(),
        allowMarkRead: z.boolean().optional(),
        school: z
          .object({
            siteId: z.string().min(1).max(100),
            enabled: z.boolean().optional(),
            categories: z
              .object(
                Object.fromEntries(ASSISTANT_CATEGORIES.map((c) => [c, z.boolean().optional()])),
              )
              .strict()
              .optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  /** The exact file (and command) a connect button would write, before anything is written. */
  'assistant:connect-preview': channel<AssistantConnectPreview>()(client),
  'assistant:connect': channel<{ path: string; backup: string | null }>()(client),
  /** The Claude Desktop bundle's manifest and files, before anything is written. */
  'assistant:bundle-preview': channel<AssistantBundlePreview>()(none),
  /** The bundle (.mcpb) itself, where the student chooses (a save dialog, Downloads first). */
  'assistant:save-bundle': channel<SaveOutcome>()(none),
  /** The activity log, newest first. */
  'assistant:activity': channel<AssistantActivityView[]>()(none),
  'assistant:clear-activity': channel<void>()(none),
  /** The activity log as a JSON Lines file, where the student chooses. */
  'assistant:export-activity': channel<SaveOutcome>()(none),
  /** What assistants asked to change and wait for the student (marking notices read). */
  'assistant:requests': channel<AssistantRequestView[]>()(none),
  /**
   * The student's answer: marked read through the outbox, or refused; either way the request is
   * gone.
   */
  'assistant:answer-request': channel<{ marked: number }>()(
    z.object({ id: z.string().uuid(), accept: z.boolean() }).strict(),
  ),
};
