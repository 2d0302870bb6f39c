import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ASSISTANT_CLIENTS,
  type AssistantClientId,
  type AssistantConnectPreview,
  type AssistantView,
} from '../../../../electron/common/assistant';
import { call } from '../../api';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorState } from '../../ui/ErrorState';
import { BundleOption } from './BundleOption';
import { useAssistant } from './useAssistant';

/**
 * Connect in one step: each button first shows the exact file and JSON it will write (and VS Code's
 * command), and writes only when the student says so. Below, the connection check says why a client
 * gets nothing.
 */
export function ConnectPanel({ view }: { view: AssistantView }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<AssistantConnectPreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ path: string; backup: string | null } | null>(null);
  const { refresh } = useAssistant();
  const show = async (client: AssistantClientId) => {
    setError(null);
    setDone(null);
    try {
      setPreview(await call('assistant:connect-preview', { client }));
    } catch (e) {
      setError(e);
    }
  };
  const write = async () => {
    if (!preview) return;
    try {
      setDone(await call('assistant:connect', { client: preview.client }));
      setPreview(null);
      refresh();
    } catch (e) {
      setError(e);
    }
  };
  const command = [view.launch.command, ...view.launch.args].join(' ');
  return (
    <section
      className="card"
      aria-labelledby="assistant-connect-title"
      data-testid="assistant-connect"
    >
      <h3 id="assistant-connect-title">{t('assistant.connect.title')}</h3>
      <p className="muted">{t('assistant.connect.explain')}</p>
      <p className="small">
        {t('assistant.connect.command')} <code data-testid="assistant-launch">{command}</code>
      </p>
      <div className="field-actions">
        {ASSISTANT_CLIENTS.map((c) => {
          const connected = view.clients.find((x) => x.client === c)?.connected === true;
          return (
            <button
              key={c}
              type="button"
              className="button"
              onClick={() => void show(c)}
              data-testid={`assistant-connect-${c}`}
            >
              {t(connected ? 'assistant.connect.again' : 'assistant.connect.to', {
                client: t(`assistant.client.${c}`),
              })}
            </button>
          );
        })}
      </div>
      {preview && (
        <div className="assistant-preview" data-testid="assistant-preview">
          <p>
            {t(
              preview.fileExists ? 'assistant.connect.willMerge' : 'assistant.connect.willCreate',
              {
                client: t(`assistant.client.${preview.client}`),
              },
            )}{' '}
            <code>{preview.path}</code>
          </p>
          <pre tabIndex={0} aria-label={t('assistant.connect.jsonLabel')}>
            {preview.json}
          </pre>
          {preview.command && (
            <p className="small">
              {t('assistant.connect.orCommand')} <code>{preview.command}</code>
            </p>
          )}
          <div className="field-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => void write()}
              data-testid="assistant-write"
            >
              {t('assistant.connect.write')}
            </button>
            <CopyButton text={preview.entry} label={t('assistant.connect.copy')} />
            <button type="button" className="button" onClick={() => setPreview(null)}>
              {t('assistant.connect.cancel')}
            </button>
          </div>
        </div>
      )}
      <BundleOption />
      {done && (
        <p role="status" data-testid="assistant-connected">
          {t('assistant.connect.done', { path: done.path })}{' '}
          {done.backup && t('assistant.connect.backup', { path: done.backup })}
        </p>
      )}
      {error !== null && <ErrorState error={error} compact />}
      <h4>{t('assistant.check.title')}</h4>
      <ul className="assistant-checks" data-testid="assistant-checks">
        {view.checks.map((c, i) => (
          <li key={i} data-status={c.status} data-finding={c.finding}>
            {c.client && <strong>{t(`assistant.client.${c.client}`)}: </strong>}
            {t(`assistant.finding.${c.finding}`)}
            {c.detail && (
              <>
                {' '}
                <code>{c.detail}</code>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
