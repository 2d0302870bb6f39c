import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarFeedView } from '../../../../electron/common/plan-contract';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTime } from '../../ui/format';

/**
 * Settings > Calendar subscription: the webcal:// address a desktop calendar subscribes to while
 * the app runs, the .ics file kept in a folder after every sync, and plainly that a web calendar
 * cannot reach this computer. The app chooses the folder in the system's dialog; typing it stays,
 * and is the only way in the browser host.
 */
export function FeedSettings() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const client = useQueryClient();
  const q = useChannel('calendar:feed', undefined);
  const [folder, setFolder] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const save = async (input: { folder?: string | null; studyBlocks?: boolean }) => {
    try {
      const v: CalendarFeedView = await call('calendar:set-feed', input);
      client.setQueryData(channelKey('calendar:feed'), v);
      setError(null);
      setFolder(null);
    } catch (e) {
      setError(e as Error);
    }
  };
  // The app's folder dialog; cancelled, nothing changes.
  const choose = async () => {
    try {
      const v = await call('calendar:choose-folder');
      if (v) client.setQueryData(channelKey('calendar:feed'), v);
      setError(null);
      setFolder(null);
    } catch (e) {
      setError(e as Error);
    }
  };
  if (q.isError) return <ErrorState error={q.error} compact onRetry={() => void q.refetch()} />;
  const v = q.data;
  if (!v) return null;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="feed-settings">
      <h3 id={`${id}-title`}>{t('feed.title')}</h3>
      <p className="muted">{t('feed.explain')}</p>
      {v.webcalUrl ? (
        <div className="field">
          <label htmlFor={`${id}-url`}>{t('feed.address')}</label>
          <input id={`${id}-url`} readOnly value={v.webcalUrl} data-testid="feed-url" />
          <span className="plan-goal">
            <CopyButton text={v.webcalUrl} label={t('feed.copy')} testId="feed-copy" />
            <a className="button small" href={v.webcalUrl} data-testid="feed-subscribe">
              {t('feed.subscribe')}
            </a>
          </span>
          <p className="muted small">{t('feed.whileRunning')}</p>
        </div>
      ) : (
        <p className="muted">{t('feed.notListening')}</p>
      )}
      <p className="plan-warn" data-testid="feed-web-note">
        {t('feed.webCalendars')}
      </p>
      <div className="field">
        <label htmlFor={`${id}-folder`}>{t('feed.folder')}</label>
        <input
          id={`${id}-folder`}
          value={folder ?? v.folder ?? ''}
          placeholder={t('feed.folderPlaceholder')}
          onChange={(e) => setFolder(e.target.value)}
          data-testid="feed-folder"
        />
        <span className="plan-goal">
          {v.canChooseFolder && (
            <button
              type="button"
              className="button small primary"
              onClick={() => void choose()}
              data-testid="feed-folder-choose"
            >
              {t('feed.chooseFolder')}
            </button>
          )}
          <button
            type="button"
            className={v.canChooseFolder ? 'button small' : 'button small primary'}
            disabled={!folder}
            onClick={() => folder && void save({ folder })}
            data-testid="feed-folder-save"
          >
            {t('feed.keepFile')}
          </button>
          {v.folder && (
            <button
              type="button"
              className="button small"
              onClick={() => void save({ folder: null })}
            >
              {t('feed.stopFile')}
            </button>
          )}
        </span>
        {v.file && (
          <p className="muted small" data-testid="feed-file">
            {v.writtenAt
              ? t('feed.written', {
                  file: v.file,
                  date: formatDateTime(v.writtenAt, i18n.language),
                })
              : v.file}
          </p>
        )}
        {v.lastError && <p role="alert">{t('feed.writeFailed')}</p>}
      </div>
      <div className="field checkbox">
        <input
          id={`${id}-study`}
          type="checkbox"
          checked={v.studyBlocks}
          onChange={(e) => void save({ studyBlocks: e.target.checked })}
          data-testid="feed-study"
        />
        <label htmlFor={`${id}-study`}>{t('feed.studyBlocks')}</label>
      </div>
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
