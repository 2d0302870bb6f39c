import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';

/**
 * What an assistant asked to change, waiting for the student: here, in the app, never in the
 * assistant's client. Looked for every few seconds (the request is a file the assistant's server
 * left in the data folder).
 */
export function AssistantRequests() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useChannel('assistant:requests', undefined, { refetchInterval: 5000 });
  const [error, setError] = useState<unknown>(null);
  const answer = async (id: string, accept: boolean) => {
    setError(null);
    try {
      await call('assistant:answer-request', { id, accept });
    } catch (e) {
      setError(e);
    }
    void client.invalidateQueries({ queryKey: channelKey('assistant:requests') });
  };
  const requests = q.data ?? [];
  if (requests.length === 0 && error === null) return null;
  return (
    <div className="banners">
      {requests.map((r) => (
        <section
          key={r.id}
          className="banner info assistant-request"
          aria-label={t('assistant.request.label')}
          data-testid="assistant-request"
        >
          <p>
            {t('assistant.request.text', {
              client: r.client,
              count: r.notices.length,
              school: r.schoolLabel,
            })}
          </p>
          <ul>
            {r.notices.slice(0, 5).map((n) => (
              <li key={n.id}>{n.title}</li>
            ))}
          </ul>
          <div className="field-actions">
            <button
              type="button"
              className="button small primary"
              onClick={() => void answer(r.id, true)}
              data-testid="assistant-request-accept"
            >
              {t('assistant.request.accept')}
            </button>
            <button
              type="button"
              className="button small"
              onClick={() => void answer(r.id, false)}
              data-testid="assistant-request-refuse"
            >
              {t('assistant.request.refuse')}
            </button>
          </div>
        </section>
      ))}
      {error !== null && <ErrorState error={error} compact />}
    </div>
  );
}
