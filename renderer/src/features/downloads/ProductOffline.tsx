import {
  BookOpen,
  Download,
  FolderOpen,
  Pause,
  Play,
  RefreshCw,
  RotateCw,
  Trash2,
  X,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpenOutcome, ProductOfflineView } from '../../../../electron/common/downloads';
import type { DigitalProductView } from '../../../../electron/common/view-models';
import { call } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { useNow } from '../../ui/useNow';
import { FileViewer } from './FileViewer';
import { downloadErrorText, formatBytes, formatTimeLeft } from './format';
import './downloads.css';

/**
 * The offline part of a product card: "Save for offline", the transfer (progress with bytes, speed
 * and time left, pause, resume, cancel, retry), the saved copy ("On this computer · 12.4 MB", open,
 * remove), a new version, and an ended access. Everything here works with the site down except
 * starting or resuming a transfer.
 */
export function ProductOffline({
  siteId,
  product,
  offline,
  expired,
}: {
  readonly siteId: string;
  readonly product: DigitalProductView;
  readonly offline: ProductOfflineView | undefined;
  readonly expired: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [opened, setOpened] = useState<OpenOutcome | null>(null);
  const now = useNow(1000);
  const key = { siteId, productId: product.id };
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const saved = offline?.saved ?? null;
  const job = offline?.job ?? null;
  const accessEnded = offline?.accessEnded ?? expired;

  if (!offline && (!product.downloadUrl || expired)) return null;
  return (
    <div className="product-offline" data-testid="product-offline">
      {saved && (
        <p className="offline-saved" data-testid="offline-saved">
          <span className="state-badge ok">
            {t('downloads.onComputer', { size: formatBytes(saved.size, lng) })}
          </span>
        </p>
      )}
      {saved && accessEnded && (
        <p className="small muted" data-testid="offline-access-ended">
          {t('downloads.accessEnded')}
        </p>
      )}
      {saved && offline?.updateAvailable && !job && (
        <p className="small" data-testid="offline-update">
          {t('downloads.updateAvailable')}
        </p>
      )}
      {job && <JobProgress title={product.title} offline={offline!} now={now} />}
      <div className="row offline-actions">
        {!saved && !job && (
          <button
            type="button"
            className="button small primary"
            disabled={busy}
            onClick={() => void run(() => call('downloads:save', key))}
            data-testid="offline-save"
          >
            <Download size={16} aria-hidden={true} /> {t('downloads.save')}
          </button>
        )}
        {saved && (
          <button
            type="button"
            className="button small primary"
            disabled={busy}
            onClick={() => void run(async () => setOpened(await call('downloads:open', key)))}
            data-testid="offline-open"
          >
            {saved.viewAs ? (
              <BookOpen size={16} aria-hidden={true} />
            ) : (
              <FolderOpen size={16} aria-hidden={true} />
            )}{' '}
            {t('downloads.open')}
          </button>
        )}
        {saved && offline?.updateAvailable && !job && !accessEnded && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:save', key))}
            data-testid="offline-update-button"
          >
            <RefreshCw size={16} aria-hidden={true} /> {t('downloads.update')}
          </button>
        )}
        {job && (job.state === 'downloading' || job.state === 'queued') && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:pause', key))}
            data-testid="offline-pause"
          >
            <Pause size={16} aria-hidden={true} /> {t('downloads.pause')}
          </button>
        )}
        {job && job.state === 'paused' && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:save', key))}
            data-testid="offline-resume"
          >
            <Play size={16} aria-hidden={true} /> {t('downloads.resume')}
          </button>
        )}
        {job && job.state === 'failed' && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:save', key))}
            data-testid="offline-retry"
          >
            <RotateCw size={16} aria-hidden={true} /> {t('downloads.retry')}
          </button>
        )}
        {job && job.state === 'needs-confirmation' && (
          <button
            type="button"
            className="button small primary"
            disabled={busy}
            onClick={() => void run(() => call('downloads:save', { ...key, confirmLarge: true }))}
            data-testid="offline-confirm"
          >
            <Download size={16} aria-hidden={true} /> {t('downloads.saveAnyway')}
          </button>
        )}
        {job && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:cancel', key))}
            data-testid="offline-cancel"
          >
            <X size={16} aria-hidden={true} /> {t('downloads.cancel')}
          </button>
        )}
        {saved && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void run(() => call('downloads:remove', key))}
            data-testid="offline-remove"
          >
            <Trash2 size={16} aria-hidden={true} /> {t('downloads.remove')}
          </button>
        )}
      </div>
      {error !== null && <ErrorState error={error} compact />}
      {opened?.kind === 'shown-in-folder' && (
        <p role="status" className="small muted">
          {t('downloads.shownInFolder')}
        </p>
      )}
      {opened && opened.kind !== 'shown-in-folder' && (
        <FileViewer outcome={opened} title={product.title} onClose={() => setOpened(null)} />
      )}
    </div>
  );
}

function JobProgress({
  title,
  offline,
  now,
}: {
  readonly title: string;
  readonly offline: ProductOfflineView;
  readonly now: number;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const job = offline.job!;
  const { bytes, total, bytesPerSecond, secondsLeft } = job.progress;
  const percent = total ? Math.min(100, (bytes / total) * 100) : 0;
  const stateKey = job.state === 'downloading' && job.isUpdate ? 'updating' : job.state;
  const parts = [
    total !== null
      ? t('downloads.progress', { done: formatBytes(bytes, lng), total: formatBytes(total, lng) })
      : t('downloads.progressUnknown', { done: formatBytes(bytes, lng) }),
  ];
  if (job.state === 'downloading' && bytesPerSecond > 0)
    parts.push(t('downloads.speed', { size: formatBytes(bytesPerSecond, lng) }));
  if (job.state === 'downloading' && secondsLeft !== null)
    parts.push(formatTimeLeft(secondsLeft, t));
  const retryIn = job.retryAt !== null ? Math.max(0, Math.ceil((job.retryAt - now) / 1000)) : null;
  return (
    <div className="offline-job" data-testid="offline-job" data-state={job.state}>
      <p className="small">
        <strong>{t(`downloads.state.${stateKey}`)}</strong>
        {bytes > 0 || job.state === 'downloading' ? (
          <>
            {' '}
            · <span data-testid="offline-progress-text">{parts.join(' · ')}</span>
          </>
        ) : null}
      </p>
      {/* An unknown size shows a moving bar only while bytes arrive; a stopped transfer never looks busy. */}
      {job.state !== 'needs-confirmation' && (total !== null || job.state === 'downloading') && (
        <progress
          className="offline-progress"
          max={total ?? undefined}
          value={total ? bytes : undefined}
          aria-label={t('downloads.progressLabel', { title })}
          aria-valuetext={`${Math.round(percent)}%`}
        />
      )}
      {job.state === 'needs-confirmation' && job.progress.total !== null && (
        <p className="small" data-testid="offline-ask">
          {t('downloads.askLarge', { size: formatBytes(job.progress.total, lng) })}
        </p>
      )}
      {job.error && job.state !== 'needs-confirmation' && (
        <p
          className={job.state === 'failed' ? 'small error-text' : 'small muted'}
          role={job.state === 'failed' ? 'alert' : undefined}
          data-testid="offline-error"
        >
          {downloadErrorText(job.error, t, lng)}
          {retryIn !== null && job.state === 'queued'
            ? ` ${t('downloads.retryIn', { count: retryIn })}`
            : ''}
        </p>
      )}
    </div>
  );
}
