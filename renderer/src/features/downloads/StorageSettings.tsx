import { useQueryClient } from '@tanstack/react-query';
import { HardDrive, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteStorageView } from '../../../../electron/common/downloads';
import { call } from '../../api';
import { channelKey, refreshQueries, useChannel } from '../../query';
import { useApp } from '../../state/context';
import { Dialog } from '../../ui/Dialog';
import { ErrorState } from '../../ui/ErrorState';
import { formatBytes } from './format';
import './downloads.css';

/**
 * Settings > Storage: the space the saved product files take, per site and per product, with
 * remove, remove all (per site and for every site), and "keep every product of this school
 * offline". Read from the manifest only:
 * it works with every site down.
 */
export function StorageSettings() {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const client = useQueryClient();
  const { sites } = useApp();
  const q = useChannel('downloads:storage', undefined, { staleTime: 0 });
  const [confirmAll, setConfirmAll] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { intro: useId() };
  const run = async (action: () => Promise<SiteStorageView[] | void>) => {
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      const next = await action();
      if (next) client.setQueryData(channelKey('downloads:storage'), next);
      else
        await refreshQueries(client, {
          predicate: (qq) =>
            qq.queryKey[0] === 'downloads:storage' || qq.queryKey[0] === 'downloads:list',
        });
      if (!next) setNotice(t('downloads.storage.removed'));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const label = (siteId: string) => sites.find((s) => s.id === siteId)?.label ?? siteId;
  const total = q.data?.reduce((n, s) => n + s.bytes, 0) ?? 0;
  return (
    <section
      className="card storage-settings"
      aria-labelledby="storage-title"
      aria-describedby={ids.intro}
      data-testid="storage-settings"
    >
      <h3 id="storage-title">
        <HardDrive size={18} aria-hidden={true} /> {t('downloads.storage.title')}
      </h3>
      <p className="muted" id={ids.intro}>
        {t('downloads.storage.intro')}{' '}
        {q.data ? t('downloads.storage.total', { size: formatBytes(total, lng) }) : ''}
      </p>
      {q.isError && <ErrorState error={q.error} compact onRetry={() => void q.refetch()} />}
      {q.data?.map((site) => (
        <SiteStorage
          key={site.siteId}
          site={site}
          label={label(site.siteId)}
          busy={busy}
          run={run}
        />
      ))}
      <div className="row">
        <button
          type="button"
          className="button danger"
          disabled={busy || total === 0}
          onClick={() => setConfirmAll(true)}
          data-testid="storage-remove-all"
        >
          <Trash2 size={16} aria-hidden={true} /> {t('downloads.storage.removeAll')}
        </button>
      </div>
      <p role="status" className="small" data-testid="storage-status">
        {notice}
      </p>
      {error !== null && <ErrorState error={error} compact />}
      <Dialog
        open={confirmAll}
        title={t('downloads.storage.removeAllTitle')}
        onClose={() => setConfirmAll(false)}
        testId="storage-remove-all-dialog"
      >
        <p>{t('downloads.storage.removeAllText')}</p>
        <div className="row dialog-actions">
          <button type="button" className="button" onClick={() => setConfirmAll(false)}>
            {t('downloads.cancel')}
          </button>
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => {
              setConfirmAll(false);
              void run(() => call('downloads:remove-all', {}));
            }}
            data-testid="storage-remove-all-confirm"
          >
            {t('downloads.storage.removeAllConfirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function SiteStorage({
  site,
  label,
  busy,
  run,
}: {
  readonly site: SiteStorageView;
  readonly label: string;
  readonly busy: boolean;
  readonly run: (action: () => Promise<SiteStorageView[] | void>) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const keepId = useId();
  const headingId = useId();
  return (
    <div
      className="storage-site"
      data-testid="storage-site"
      aria-labelledby={headingId}
      role="group"
    >
      <h4 id={headingId}>
        {label}{' '}
        <span className="muted small">
          · {t('downloads.storage.used', { size: formatBytes(site.bytes, lng) })}
        </span>
      </h4>
      <div className="fault-toggle">
        <input
          id={keepId}
          type="checkbox"
          role="switch"
          checked={site.keepAll}
          disabled={busy}
          aria-describedby={`${keepId}-hint`}
          onChange={(e) =>
            void run(() =>
              call('downloads:set-keep-all', { siteId: site.siteId, keepAll: e.target.checked }),
            )
          }
          data-testid="storage-keep-all"
        />
        <label htmlFor={keepId}>{t('downloads.storage.keepAll')}</label>
        <p className="hint" id={`${keepId}-hint`}>
          {t('downloads.storage.keepAllHint')}
        </p>
      </div>
      {site.products.length === 0 ? (
        <p className="small muted">{t('downloads.storage.none')}</p>
      ) : (
        <ul className="storage-products">
          {site.products.map((p) => (
            <li key={p.productId} data-testid="storage-product">
              <span className="storage-name">{p.title || p.productId}</span>
              <span className="muted small">
                {p.saved ? formatBytes(p.saved.size, lng) : t('downloads.storage.inProgress')}
                {p.accessEnded && p.saved ? ` · ${t('downloads.storage.accessEnded')}` : ''}
              </span>
              <button
                type="button"
                className="button small"
                disabled={busy}
                aria-label={`${t('downloads.remove')}: ${p.title || p.productId}`}
                onClick={() =>
                  void run(() =>
                    p.saved
                      ? call('downloads:remove', { siteId: site.siteId, productId: p.productId })
                      : call('downloads:cancel', { siteId: site.siteId, productId: p.productId }),
                  )
                }
                data-testid="storage-remove"
              >
                <Trash2 size={16} aria-hidden={true} /> {t('downloads.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {site.products.length > 0 && (
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => void run(() => call('downloads:remove-all', { siteId: site.siteId }))}
          data-testid="storage-remove-site"
        >
          <Trash2 size={16} aria-hidden={true} /> {t('downloads.storage.removeSite')}
        </button>
      )}
    </div>
  );
}
