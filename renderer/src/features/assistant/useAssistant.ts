import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssistantView } from '../../../../electron/common/assistant';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';

type Patch = ChannelInput<'assistant:update'>;

/**
 * The assistant's settings as the core has them, and one change at a time. A box shows its new
 * state at once (the change applied to the view held here); the core's answer then replaces the
 * view, or the old one comes back if the change failed.
 */
export function useAssistant() {
  const client = useQueryClient();
  const key = channelKey('assistant:get');
  const q = useChannel('assistant:get', undefined);
  const update = useMutation<AssistantView, Error, Patch, { before: AssistantView | undefined }>({
    mutationFn: (patch) => call('assistant:update', patch),
    onMutate: async (patch) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<AssistantView>(key);
      if (before) client.setQueryData(key, applyLocally(before, patch));
      return { before };
    },
    onError: (_e, _patch, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSuccess: (view) => client.setQueryData(key, view),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  return { q, update, refresh };
}

function applyLocally(view: AssistantView, patch: Patch): AssistantView {
  const cloud = patch.cloudAcknowledged ?? view.cloudAcknowledged;
  const enabled = patch.enabled === undefined ? view.enabled : patch.enabled && cloud;
  return {
    ...view,
    cloudAcknowledged: cloud,
    enabled: cloud ? enabled : false,
    surfaceChanged: patch.enabled === true ? false : view.surfaceChanged,
    fullPaymentCodes: patch.fullPaymentCodes ?? view.fullPaymentCodes,
    allowMarkRead: patch.allowMarkRead ?? view.allowMarkRead,
    schools: view.schools.map((s) =>
      s.siteId !== patch.school?.siteId
        ? s
        : {
            ...s,
            enabled: patch.school.enabled ?? s.enabled,
            categories: { ...s.categories, ...stripUndefined(patch.school.categories ?? {}) },
          },
    ),
  };
}

const stripUndefined = (o: Record<string, boolean | undefined>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<
    string,
    boolean
  >;
