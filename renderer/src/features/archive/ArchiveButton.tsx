import { Archive } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { fileLanguage } from '../export/index';

/**
 * "Keep an archive": one school's courses, notes, purchases with receipts, products, events and
 * notices as a folder that opens in any browser without the app (written atomically by the core, in
 * the app's Archives folder).
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
  const [done, setDone] = useState<{ folder: string; files: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const make = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await call('archive:site', { siteId, language: fileLanguage(i18n.language) }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
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
      <span role="status" className="muted small" data-testid="archive-status">
        {done ? t('archive.done', { folder: done.folder, count: done.files }) : ''}
      </span>
      {error !== null && <ErrorState error={error} compact />}
    </span>
  );
}
