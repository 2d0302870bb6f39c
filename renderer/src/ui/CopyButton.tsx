import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies `text` to the clipboard and says so visibly ("Copied") for a few seconds. */
export function CopyButton({
  text,
  label,
  testId,
}: {
  readonly text: string;
  readonly label: string;
  readonly testId?: string;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const id = window.setTimeout(() => setState('idle'), 2500);
    return () => window.clearTimeout(id);
  }, [state]);
  const copy = async () => {
    try {
      // The async Clipboard API can wait on a permission prompt or window focus; don't leave the
      // user hanging.
      await Promise.race([
        navigator.clipboard.writeText(text),
        new Promise((_, reject) => window.setTimeout(() => reject(new Error('timeout')), 1500)),
      ]);
      setState('copied');
    } catch {
      setState(copyWithSelection(text) ? 'copied' : 'failed');
    }
  };
  return (
    <span className="copy">
      <button
        type="button"
        className="button small"
        onClick={() => void copy()}
        aria-label={label}
        data-testid={testId}
      >
        <Copy aria-hidden="true" />
        {t('common.copy')}
      </button>
      <span
        role="status"
        className={state === 'failed' ? 'copy-status bad' : 'copy-status'}
        data-testid={testId ? `${testId}-status` : undefined}
      >
        {state === 'copied' ? (
          <>
            <Check aria-hidden="true" />
            {t('common.copied')}
          </>
        ) : state === 'failed' ? (
          t('common.copyFailed')
        ) : (
          ''
        )}
      </span>
    </span>
  );
}

/**
 * Fallback for when the Clipboard API is unavailable: copy from a selected, off-screen textarea.
 */
function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
