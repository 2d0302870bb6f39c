import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SaveOutcome } from '../../../../electron/common/files-and-invites';
import { assertNever } from '../../../../electron/common/result';
import { ErrorState } from '../../ui/ErrorState';
import './export.css';

/** The language files are written in: the one the screens show. */
export function fileLanguage(lng: string): 'en' | 'zh-TW' {
  return lng.toLowerCase().startsWith('zh') ? 'zh-TW' : 'en';
}

/**
 * Hands the student a file the core made: Electron has already asked where to save it (a save
 * dialog); the browser host gives a same-origin address to download, or a receipt's print view to
 * open (the browser prints it or saves it as PDF). A download is read here first and handed to the
 * browser whole, so the button can say "Saved" or why not, instead of "Downloading" forever (a page
 * cannot see a download it only started).
 */
export async function receiveFile(outcome: SaveOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'saved':
    case 'cancelled':
      return;
    case 'download': {
      const res = await fetch(outcome.url, { credentials: 'same-origin' });
      if (!res.ok)
        throw new Error(`The file could not be read (HTTP ${res.status}). Ask for it again.`);
      const href = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = href;
      a.download = outcome.fileName;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
      // The browser has taken the file; the object URL is let go once the click's download has
      // started.
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
      return;
    }
    case 'print-view':
      window.open(outcome.url, '_blank', 'noopener');
      return;
    default:
      assertNever(outcome, 'save outcome');
  }
}

interface Props {
  /** Asks the core for the file; resolves with what became of it. */
  readonly run: () => Promise<SaveOutcome>;
  readonly label: string;
  /** The accessible name when the visible label is not enough ("Receipt for order T-1"). */
  readonly ariaLabel?: string;
  /** A decorative icon (lucide-react); the label carries the meaning. */
  readonly icon?: ReactNode;
  readonly testId?: string;
  readonly small?: boolean;
}

/** A button that makes a file, then says what happened (saved, or why not) in a live region. */
export function FileActionButton({ run, label, ariaLabel, icon, testId, small }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string>('');
  const [error, setError] = useState<unknown>(null);
  const click = async () => {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const outcome = await run();
      await receiveFile(outcome);
      setStatus(
        outcome.kind === 'saved'
          ? t('export.saved', { name: outcome.fileName })
          : outcome.kind === 'download'
            ? t('export.downloaded', { name: outcome.fileName })
            : outcome.kind === 'print-view'
              ? t('export.printView')
              : '',
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="file-action">
      <button
        type="button"
        className={small ? 'button small' : 'button'}
        onClick={() => void click()}
        disabled={busy}
        aria-label={ariaLabel}
        data-testid={testId}
      >
        {icon}
        {busy ? t('export.working') : label}
      </button>
      <span
        role="status"
        className="file-action-status muted small"
        data-testid={testId ? `${testId}-status` : undefined}
      >
        {status}
      </span>
      {error !== null && <ErrorState error={error} compact />}
    </span>
  );
}
