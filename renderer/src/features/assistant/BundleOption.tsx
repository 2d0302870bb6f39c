import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AssistantBundlePreview } from '../../../../electron/common/assistant';
import { call } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { deliver } from './save-outcome';

/**
 * Claude Desktop's other way in: a bundle (.mcpb) the student opens in Claude Desktop. The manifest
 * and the files are shown first; the bundle is saved only when the student says so, where the save
 * dialog says (Downloads first).
 */
export function BundleOption() {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<AssistantBundlePreview | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const show = async () => {
    setError(null);
    setStatus('');
    try {
      setPreview(await call('assistant:bundle-preview'));
    } catch (e) {
      setError(e);
    }
  };
  const save = async () => {
    setError(null);
    try {
      const name = await deliver(await call('assistant:save-bundle'));
      if (name !== null) {
        setStatus(t('assistant.bundle.saved', { name }));
        setPreview(null);
      }
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div data-testid="assistant-bundle">
      <p className="small">{t('assistant.bundle.explain')}</p>
      <div className="field-actions">
        <button
          type="button"
          className="button"
          onClick={() => void show()}
          data-testid="assistant-bundle-show"
        >
          {t('assistant.bundle.show')}
        </button>
      </div>
      {preview && (
        <div className="assistant-preview" data-testid="assistant-bundle-preview">
          <p>
            {t('assistant.bundle.willWrite', { name: preview.fileName })}{' '}
            {preview.files.map((f, i) => (
              <span key={f}>
                {i > 0 && ', '}
                <code>{f}</code>
              </span>
            ))}
          </p>
          <pre tabIndex={0} aria-label={t('assistant.bundle.manifestLabel')}>
            {preview.manifest}
          </pre>
          <div className="field-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => void save()}
              data-testid="assistant-bundle-save"
            >
              {t('assistant.bundle.save')}
            </button>
            <button type="button" className="button" onClick={() => setPreview(null)}>
              {t('assistant.connect.cancel')}
            </button>
          </div>
        </div>
      )}
      {status && (
        <p role="status" data-testid="assistant-bundle-saved">
          {status}
        </p>
      )}
      {error !== null && <ErrorState error={error} compact />}
    </div>
  );
}
