import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { SignInPhase } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import { useLiveState } from '../../state/live-state';
import { ErrorState } from '../../ui/ErrorState';
import { SignInDoctor } from './SignInDoctor';
import { useSignIn } from './sign-in';

export function phaseKey(phase: SignInPhase): string {
  switch (phase) {
    case 'discovering':
    case 'waiting-for-browser':
    case 'exchanging-code':
    case 'verifying':
    case 'done':
    case 'failed':
      return `sites.signIn.phase.${phase}`;
    default:
      return assertNever(phase, 'sign-in phase');
  }
}

/**
 * "Continue in your browser": the phase, a way to open the page again, Cancel; or the failure and a
 * retry.
 */
export function SignInPanel({
  siteId,
  siteLabel,
}: {
  readonly siteId: string;
  readonly siteLabel: string;
}) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const live = useLiveState();
  const progress = live.signIn[siteId];
  const mine = signIn.siteId === siteId;

  if (mine && signIn.error) {
    return (
      <section
        className="card sign-in-panel"
        aria-labelledby="sign-in-title"
        data-testid="sign-in-error"
      >
        <h2 id="sign-in-title">{t('sites.signIn.failedTitle', { site: siteLabel })}</h2>
        <ErrorState error={signIn.error} />
        <div className="row">
          <button
            type="button"
            className="button primary"
            onClick={() => void signIn.signIn(siteId)}
            data-testid="sign-in-retry"
          >
            {t('sites.signIn.tryAgain')}
          </button>
          <button type="button" className="button" onClick={signIn.dismiss}>
            {t('common.close')}
          </button>
        </div>
        {/* A new failure starts a fresh doctor (key): its report is about this attempt. */}
        {signIn.error.code !== 'sign-in-cancelled' && signIn.error.code !== 'sign-in-denied' && (
          <SignInDoctor
            key={`${signIn.error.code}:${signIn.error.message}`}
            target={{ siteId }}
            siteLabel={siteLabel}
          />
        )}
      </section>
    );
  }
  if (!(mine && signIn.pending)) return null;

  const phase = progress?.phase ?? 'discovering';
  return (
    <section
      className="card sign-in-panel"
      aria-labelledby="sign-in-title"
      data-testid="sign-in-progress"
    >
      <h2 id="sign-in-title">{t('sites.signIn.continueInBrowser')}</h2>
      <p>{t('sites.signIn.explain', { site: siteLabel })}</p>
      <p
        role="status"
        aria-live="polite"
        className="phase"
        data-testid="sign-in-phase"
        data-phase={phase}
      >
        <LoaderCircle className="spin" aria-hidden="true" /> {t(phaseKey(phase))}
      </p>
      <div className="row">
        {progress?.authorizationUrl && (
          <a
            className="button"
            href={progress.authorizationUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('sites.signIn.openAgain')}
          </a>
        )}
        <button
          type="button"
          className="button"
          onClick={() => void signIn.cancel()}
          data-testid="sign-in-cancel"
        >
          {t('common.cancel')}
        </button>
      </div>
    </section>
  );
}
