import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { call } from '../../api';
import { refreshQueries, useChannel } from '../../query';

/** The student's zone: weeks and study days are theirs. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function usePlan() {
  return useChannel('plan:get', { timeZone: timeZone() });
}

export function useCoursePlan(siteId: string, courseId: string) {
  return useChannel('plan:course', { siteId, courseId, timeZone: timeZone() });
}

const PLAN_CHANNELS: ReadonlySet<unknown> = new Set(['plan:get', 'plan:course']);

/** A change of goal or study days: every plan on screen is read again. */
export function usePlanChange<A>(run: (input: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation<unknown, Error, A>({
    mutationFn: run,
    onSettled: () => refreshQueries(client, { predicate: (q) => PLAN_CHANNELS.has(q.queryKey[0]) }),
  });
}

export const setGoal = (input: ChannelInput<'plan:set-goal'>) => call('plan:set-goal', input);
export const setStudyDays = (days: number[]) => call('plan:set-study-days', { days });
