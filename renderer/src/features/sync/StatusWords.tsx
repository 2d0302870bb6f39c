import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '../../ui/format';
import { useNow } from '../../ui/useNow';
import { syncPhaseKey } from './labels';
import { statusReasonKey, useSyncStatus } from '../../state/sync-status';

/**
 * A school's status in words, from its one status view: "Syncing… · Courses", "Synced 2 minutes
 * ago", or "Last synced 12 minutes ago · Demo School isn't answering". The status bar and Today's
 * header both say it with this, so they never disagree about one school.
 */
export function StatusWords({
  siteId,
  siteLabel,
  lastSyncedAt: fallback,
  marked = false,
}: {
  readonly siteId: string;
  readonly siteLabel: string;
  /** What the site list knew, until the status is read. */
  readonly lastSyncedAt: string | null;
  /** The status bar's words carry the test ids (one of each on a page). */
  readonly marked?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow(15_000);
  const { status, progress, running, view } = useSyncStatus(siteId);
  const lastSyncedAt = status.data?.lastSyncedAt ?? fallback;
  const reasonKey = statusReasonKey(view.state);
  const lng = i18n.language;
  return (
    <>
      {running ? (
        <>
          {t('sync.running')}
          {progress && <> · {t(syncPhaseKey(progress.phase))}</>}
          {progress && progress.itemsFetched > 0 && (
            <> · {t('sync.items', { count: progress.itemsFetched })}</>
          )}
        </>
      ) : lastSyncedAt ? (
        <span
          title={formatDateTime(lastSyncedAt, lng)}
          data-testid={marked ? 'last-synced' : undefined}
        >
          {t(reasonKey ? 'siteStatus.lastSynced' : 'sync.lastSynced', {
            when: formatRelative(lastSyncedAt, now, lng),
          })}
        </span>
      ) : (
        t('sync.never')
      )}
      {reasonKey && (
        <>
          {' · '}
          <span
            className={`status-reason ${view.tone}`}
            data-testid={marked ? 'status-reason' : undefined}
          >
            {t(reasonKey, { site: siteLabel })}
          </span>
        </>
      )}
    </>
  );
}
