import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AppError } from '../../../../electron/common/result';
import { call, toAppError } from '../../api';
import { clearSignIn } from '../../state/live-state';
import { channelKey, invalidateSite, refreshQueries } from '../../query';

export interface SignInState {
  readonly siteId: string | null;
  readonly pending: boolean;
  readonly error: AppError | null;
}

interface SignInController extends SignInState {
  readonly signIn: (siteId: string) => Promise<boolean>;
  readonly cancel: () => Promise<void>;
  readonly dismiss: () => void;
}

const Ctx = createContext<SignInController | null>(null);

/**
 * One sign-in at a time: `sites:sign-in` resolves when the browser round-trip completes or fails.
 */
export function SignInProvider({ children }: { readonly children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<SignInState>({ siteId: null, pending: false, error: null });

  const signIn = useCallback(
    async (siteId: string) => {
      clearSignIn(siteId);
      setState({ siteId, pending: true, error: null });
      try {
        await call('sites:sign-in', { siteId });
        setState({ siteId: null, pending: false, error: null });
        await refreshQueries(client, { queryKey: channelKey('sites:list') });
        await invalidateSite(client, siteId);
        return true;
      } catch (e) {
        setState({ siteId, pending: false, error: toAppError(e) });
        await refreshQueries(client, { queryKey: channelKey('sites:list') });
        return false;
      }
    },
    [client],
  );

  const cancel = useCallback(async () => {
    if (state.siteId)
      await call('sites:cancel-sign-in', { siteId: state.siteId }).catch(() => undefined);
  }, [state.siteId]);

  const dismiss = useCallback(() => setState({ siteId: null, pending: false, error: null }), []);

  const value = useMemo(
    () => ({ ...state, signIn, cancel, dismiss }),
    [state, signIn, cancel, dismiss],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSignIn(): SignInController {
  const v = useContext(Ctx);
  if (!v) throw new Error('useSignIn outside SignInProvider');
  return v;
}
