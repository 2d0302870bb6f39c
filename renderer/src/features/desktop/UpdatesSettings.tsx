import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { UpdateState } from '../../../../electron/common/view-models';
import { onEvent } from '../../api';
import { channelKey, useChannel, useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTime } from '../../ui/format';
import { Loading } from '../../ui/states';

/**
 * Settings > Updates: the update state machine's state (electron/core/desktop/updates.ts), live,
 * and its two actions.
 */
export function UpdatesSettings() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const q = useChannel('updates:get-state', undefined, { staleTime: Infinity });
  const check = useChannelMutation('updates:check');
  const restart = useChannelMutation('updates:restart');
  useEffect(
    () =>
      onEvent('updates:changed', (state) =>
        client.setQueryData(channelKey('updates:get-state'), state),
      ),
    [client],
  );
  const set = (state: UpdateState) => client.setQueryData(channelKey('updates:get-state'), state);
  const s = q.data;
  return (
    <section
      className="card"
      aria-labelledby="desktop-updates-title"
      data-testid="updates-settings"
    >
      <h3 id="desktop-updates-title">{t('desktop.updates.title')}</h3>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} compact />
      ) : (
        <>
          <p data-testid="update-status" data-status={s!.status}>
            {describe(s!, t, i18n.language)}
          </p>
          {s!.status === 'downloading' && (
            <progress max={100} value={s!.percent} aria-label={t('desktop.updates.progress')} />
          )}
          {(s!.status === 'idle' || s!.status === 'error') && (
            <button
              type="button"
              className="button"
              disabled={check.isPending}
              onClick={() => check.mutate(undefined, { onSuccess: set })}
              data-testid="update-check"
            >
              {t('desktop.updates.check')}
            </button>
          )}
          {s!.status === 'ready' && !s!.restartQueued && (
            <button
              type="button"
              className="button primary"
              onClick={() => restart.mutate(undefined, { onSuccess: set })}
              data-testid="update-restart"
            >
              {t('desktop.updates.restart')}
            </button>
          )}
          {(check.error ?? restart.error) && (
            <ErrorState error={(check.error ?? restart.error)!} compact />
          )}
        </>
      )}
    </section>
  );
}

function describe(
  s: UpdateState,
  t: (key: string, vars?: Record<string, unknown>) => string,
  lng: string,
): string {
  switch (s.status) {
    case 'off':
      return t(`desktop.updates.off.${s.reason}`);
    case 'idle':
      // The latest check reached no server: as up to date as the last one that did, said quietly
      // with the reason.
      if (s.unreachable)
        return s.lastCheckedAt
          ? t('desktop.updates.upToDateAsOf', {
              date: formatDateTime(s.lastCheckedAt, lng),
              reason: s.unreachable.reason,
            })
          : t('desktop.updates.notReached', { reason: s.unreachable.reason });
      return s.lastCheckedAt ? t('desktop.updates.upToDate') : t('desktop.updates.idle');
    case 'checking':
      return t('desktop.updates.checking');
    case 'available':
      return t('desktop.updates.available', { version: s.version });
    case 'downloading':
      return t('desktop.updates.downloading', { version: s.version, percent: s.percent });
    case 'ready':
      return s.restartQueued
        ? t('desktop.updates.restartQueued', { version: s.version })
        : t('desktop.updates.ready', { version: s.version });
    case 'error':
      return t('desktop.updates.error', { message: s.message });
  }
}
