import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTimeSeconds } from '../../ui/format';
import { deliver } from './save-outcome';

/**
 * The "AI activity" view: every call an assistant made (time, client, what, rows, outcome,
 * duration), never what it read. Clear empties the log; export saves it as CSV.
 */
export function ActivityView() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const q = useChannel('assistant:activity', undefined);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const refetch = () =>
    void client.invalidateQueries({ queryKey: channelKey('assistant:activity') });
  const clear = async () => {
    setError(null);
    try {
      await call('assistant:clear-activity');
      setStatus(t('assistant.activity.cleared'));
      refetch();
    } catch (e) {
      setError(e);
    }
  };
  const exportLog = async () => {
    setError(null);
    try {
      const name = await deliver(await call('assistant:export-activity'));
      setStatus(name === null ? '' : t('assistant.activity.saved', { name }));
    } catch (e) {
      setError(e);
    }
  };
  const entries = q.data ?? [];
  return (
    <section
      className="card"
      aria-labelledby="assistant-activity-title"
      data-testid="assistant-activity"
    >
      <h3 id="assistant-activity-title">{t('assistant.activity.title')}</h3>
      <p className="muted">{t('assistant.activity.explain')}</p>
      <div className="field-actions">
        <button type="button" className="button" onClick={refetch}>
          {t('assistant.activity.refresh')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void exportLog()}
          disabled={entries.length === 0}
          data-testid="assistant-activity-export"
        >
          {t('assistant.activity.export')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void clear()}
          disabled={entries.length === 0}
          data-testid="assistant-activity-clear"
        >
          {t('assistant.activity.clear')}
        </button>
      </div>
      <p role="status" className="muted small">
        {status}
      </p>
      {error !== null && <ErrorState error={error} compact />}
      {q.isError && <ErrorState error={q.error} compact />}
      {entries.length === 0 ? (
        <p data-testid="assistant-activity-empty">{t('assistant.activity.empty')}</p>
      ) : (
        <div
          className="assistant-table-wrap"
          tabIndex={0}
          aria-labelledby="assistant-activity-title"
        >
          <table className="assistant-table" data-testid="assistant-activity-table">
            <thead>
              <tr>
                <th scope="col">{t('assistant.activity.when')}</th>
                <th scope="col">{t('assistant.activity.client')}</th>
                <th scope="col">{t('assistant.activity.what')}</th>
                <th scope="col">{t('assistant.activity.rows')}</th>
                <th scope="col">{t('assistant.activity.outcome')}</th>
                <th scope="col">{t('assistant.activity.ms')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.slice(0, 200).map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{formatDateTimeSeconds(e.at, i18n.language)}</td>
                  <td>{e.client}</td>
                  <td>
                    <code>{e.name}</code>{' '}
                    <span className="muted small">
                      {Object.entries(e.args)
                        .map(([k, v]) => `${k}=${String(v)}`)
                        .join(' ')}
                    </span>
                  </td>
                  <td>{e.rows}</td>
                  <td data-outcome={e.outcome}>{t(`assistant.outcome.${e.outcome}`)}</td>
                  <td>{e.ms}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
