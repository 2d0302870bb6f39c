import { Archive } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveProgress } from '../../../../electron/common/archive-contract';
import { call, onEvent } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { fileLanguage } from '../export/index';

type Outcome = { readonly folder: string; readonly files: number } | 'cancelled';

/**
 * "Keep an archive": one school's courses, notes, purchases with receipts, products, events and
 * notices as a folder that opens in any browser without the app (written atomically by the core, in
 * the app's Archives folder). While it is made, a bar shows the files written of the total
 * (`archive:progress`), and Cancel stops it with nothing left behind.
 */
export function ArchiveButton({
  siteId,
  siteLabel,
}: {
  readonly siteId: string;
  readonly siteLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<ArchiveProgress | null>(null);
  const [done, setDone] = useState<Outcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(
    () =>
      busy
        ? onEvent('archive:progress', (p) => {
            if (p.siteId === siteId) setProgress(p);
          })
        : undefined,
    [busy, siteId],
  );
  const make = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    setProgress(null);
    try {
      const made = await call('archive:site', { siteId, language: fileLanguage(i18n.language) });
      setDone(made.cancelled ? 'cancelled' : { folder: made.folder, files: made.files });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  const status =
    done === 'cancelled'
      ? t('archive.cancelled')
      : done
        ? t('archive.done', { folder: done.folder, count: done.files })
        : progress?.stage === 'writing'
          ? t('archive.writing', { done: progress.done, total: progress.total })
          : busy
            ? t('archive.reading')
            : '';
  return (
    <span className="archive-action">
      <button
        type="button"
        className="button small"
        onClick={() => void make()}
        disabled={busy}
        aria-label={t('archive.buttonLabel', { site: siteLabel })}
        data-testid="archive-site"
      >
        <Archive aria-hidden="true" />
        {busy ? t('archive.making') : t('archive.button')}
      </button>
      {busy && (
        <>
          <progress
            max={progress?.stage === 'writing' ? progress.total : undefined}
            value={progress?.stage === 'writing' ? progress.done : undefined}
            aria-label={t('archive.progressLabel')}
            data-testid="archive-progress"
          />
          <button
            type="button"
            className="button small"
            onClick={() => void call('archive:cancel', { siteId })}
            data-testid="archive-cancel"
          >
            {t('archive.cancel')}
          </button>
        </>
      )}
      <span role="status" className="muted small" data-testid="archive-status">
        {status}
      </span>
      {error !== null && <ErrorState error={error} compact />}
    </span>
  );
}
