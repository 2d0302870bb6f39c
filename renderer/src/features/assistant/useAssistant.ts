import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssistantView } from '../../../../electron/common/assistant';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';

/** The assistant's settings as the core has them, and one change at a time (the answer replaces the view). */
export function useAssistant() {
  const client = useQueryClient();
  const q = useChannel('assistant:get', undefined);
  const update = useMutation<AssistantView, Error, ChannelInput<'assistant:update'>>({
    mutationFn: (patch) => call('assistant:update', patch),
    onSuccess: (view) => client.setQueryData(channelKey('assistant:get'), view),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: channelKey('assistant:get') });
  return { q, update, refresh };
}
