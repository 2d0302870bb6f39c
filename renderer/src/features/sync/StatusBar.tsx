import { useTranslation } from 'react-i18next';
import { useSite } from '../../state/context';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { invalidateSite, useChannelMutation } from '../../query';
import { ProgressBar } from '../../ui/states';
import { StatusWords } from './StatusWords';
import { useSyncStatus } from '../../state/sync-status';

/**
 * Always at the bottom: when the data was last synced, the sync in progress, what is waiting to be
 * sent. Its colour and reason come from the site's one status view (useSyncStatus `view`), the same
 * the header chip shows.
 */
export function StatusBar() {
  const { t } = useTranslation();
  const site = useSite();
  const { status, progress, running, view } = useSyncStatus(site.id);
  const syncNow = useChannelMutation('sync:now');
  const cancel = useChannelMutation('sync:cancel');
  const lastSyncedAt = status.data?.lastSyncedAt ?? site.lastSyncedAt;
  const pending = status.data?.pendingChanges ?? 0;
  const failed = status.data?.failedChanges ?? [];
  const client = useQueryClient();
  const seen = useRef(lastSyncedAt);
  // A newer snapshot than the one the views were read from: refetch them (covers a missed
  // data:changed event).
  useEffect(() => {
    if (lastSyncedAt !== seen.current) {
      seen.current = lastSyncedAt;
      void invalidateSite(client, site.id);
    }
  }, [lastSyncedAt, client, site.id]);

  return (
    <div
      className="status-bar"
      data-testid="sync-status"
      data-running={running ? 'true' : 'false'}
      data-state={view.state}
      data-tone={view.tone}
    >
      <span className={`dot ${view.tone}`} aria-hidden="true" />
      <span className="status-text" role="status" aria-live="polite">
        <StatusWords
          siteId={site.id}
          siteLabel={site.label}
          lastSyncedAt={site.lastSyncedAt}
          marked
        />
      </span>
      {running && (
        <div className="status-progress">
          <ProgressBar
            value={progress?.fraction != null ? progress.fraction * 100 : 0}
            label={t('sync.progressLabel')}
          />
        </div>
      )}
      {pending > 0 && (
        <span className="pill" data-testid="pending-changes">
          {t('sync.pending', { count: pending })}
        </span>
      )}
      {failed.length > 0 && (
        <details className="failed-changes" data-testid="failed-changes">
          <summary className="pill danger">{t('sync.failed', { count: failed.length })}</summary>
          <div className="popover">
            <p>{t('sync.failedExplain')}</p>
            <ul>
              {failed.map((f) => (
                <li key={f.id}>
                  <strong>{f.description}</strong>: {f.error}
                </li>
              ))}
            </ul>
          </div>
        </details>
      )}
      <span className="spacer" />
      {running ? (
        <button
          type="button"
          className="button small"
          onClick={() => cancel.mutate({ siteId: site.id })}
        >
          {t('sync.cancel')}
        </button>
      ) : (
        <button
          type="button"
          className="button small"
          onClick={() => syncNow.mutate({ siteId: site.id })}
          disabled={site.status !== 'ready' || syncNow.isPending}
          data-testid="sync-now"
        >
          {t('sync.now')}
        </button>
      )}
      {syncNow.error && !running && (
        <span className="status-error" role="alert">
          {t('sync.lastRunFailed')}
        </span>
      )}
    </div>
  );
}
