import { CircleAlert, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '../../../electron/common/errors';
import { isErrorCode } from '../../../electron/common/errors';
import type { AppError } from '../../../electron/common/result';
import { assertNever } from '../../../electron/common/result';
import { toAppError } from '../api';
import { nextStepKey } from './error-text';

/**
 * The i18n key holding the plain-words explanation (errors.<key>.what) and next step
 * (errors.<key>.next).
 */
export function errorKey(code: ErrorCode): string {
  switch (code) {
    case 'invalid-input':
    case 'not-found':
    case 'network-unavailable':
    case 'site-unreachable':
    case 'discovery-invalid':
    case 'pkce-unsupported':
    case 'sign-in-cancelled':
    case 'sign-in-denied':
    case 'sign-in-timeout':
    case 'sign-in-failed':
    case 'state-mismatch':
    case 'issuer-mismatch':
    case 'id-token-invalid':
    case 'wrong-organization':
    case 'sign-in-needed':
    case 'insufficient-scope':
    case 'server-unavailable':
    case 'server-error':
    case 'sync-cancelled':
    case 'sync-failed':
    case 'storage-error':
    case 'site-data-invalid':
    case 'site-data-changing':
    case 'database-too-new':
    case 'forbidden':
    case 'internal':
      return code;
    default:
      return assertNever(code, 'error code');
  }
}

export function useErrorText() {
  const { t, i18n } = useTranslation();
  return (error: AppError | { code: string; message: string; detail?: AppError['detail'] }) => {
    const code = isErrorCode(error.code) ? error.code : 'internal';
    const key = errorKey(code);
    // The core names what the student can do about this failure (a clock, the site's signing
    // algorithm, the application ID, a permission they did not allow): a hint of that code's own,
    // else its general next step.
    const scope =
      'detail' in error && typeof error.detail?.scope === 'string' ? error.detail.scope : '';
    return {
      what: t(`errors.${key}.what`),
      next: t(
        nextStepKey(key, 'detail' in error ? error.detail : undefined, (k) => i18n.exists(k)),
        { scope },
      ),
      detail: error.message,
    };
  };
}

interface Props {
  readonly error: unknown;
  readonly onRetry?: () => void;
  /** A heading for the failed area, e.g. "Couldn't load your courses". */
  readonly title?: string;
  readonly compact?: boolean;
}

/** A failed Result, explained in plain words with what to do next and a retry. */
export function ErrorState({ error, onRetry, title, compact }: Props) {
  const { t } = useTranslation();
  const explain = useErrorText();
  const appError = toAppError(error);
  const text = explain(appError);
  return (
    <div
      className={compact ? 'error-state compact' : 'error-state'}
      role="alert"
      data-testid="error-state"
      data-error-code={appError.code}
    >
      <CircleAlert aria-hidden="true" />
      <div className="error-body">
        {title && <p className="error-title">{title}</p>}
        <p>{text.what}</p>
        <p className="muted">{text.next}</p>
        <details className="error-detail">
          <summary>{t('common.details')}</summary>
          <p>
            <code>{appError.code}</code> {text.detail}
          </p>
        </details>
        {onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            <RotateCw aria-hidden="true" />
            {t('common.retry')}
          </button>
        )}
      </div>
    </div>
  );
}
