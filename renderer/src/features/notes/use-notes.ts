import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
} from '../../../../electron/common/ipc-contract';
import { call } from '../../api';
import { refreshQueries } from '../../query-refresh';

type NoteWrite =
  'notes:add' | 'notes:update' | 'notes:delete' | 'notes:restore' | 'notes:forget-site';

/**
 * Every notes query (the course's list, the notes view, search, the palette): all refetched after a
 * write.
 */
const isNotesQuery = (key: unknown) => typeof key === 'string' && key.startsWith('notes:');

/** A write to the notes, then every list of notes on screen read again. */
export function useNoteWrite() {
  const client = useQueryClient();
  return useCallback(
    async <C extends NoteWrite & Channel>(
      channel: C,
      input: ChannelInput<C>,
    ): Promise<ChannelOutput<C>> => {
      try {
        return await (call as (c: C, i: ChannelInput<C>) => Promise<ChannelOutput<C>>)(
          channel,
          input,
        );
      } finally {
        void refreshQueries(client, { predicate: (q) => isNotesQuery(q.queryKey[0]) });
      }
    },
    [client],
  );
}

const SEEN_KEY = 'ld.notes.local-only-seen';

/** The app says once that notes live on this computer only; then the student has read it. */
export function localOnlySeen(): boolean {
  try {
    return globalThis.localStorage?.getItem(SEEN_KEY) === '1';
  } catch {
    return false;
  }
}

export function markLocalOnlySeen(): void {
  try {
    globalThis.localStorage?.setItem(SEEN_KEY, '1');
  } catch {
    // Storage refused (a private window): the notice shows again next time, nothing else changes.
  }
}
