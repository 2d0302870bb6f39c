import { useTranslation } from 'react-i18next';
import { useSite } from '../../state/context';
import { useErrorText } from '../../ui/ErrorState';
import { SignInPanel, useSignIn } from '../sites/index';
import { missingScopeKey } from './labels';
import { useSyncStatus } from '../../state/sync-status';

/**
 * Above every screen: offline, the school not answering, "Sign in again", pending sign-out, missing
 * scopes, a history too long to keep whole (a note, not a failure), last sync failure. Which of
 * offline / not answering / failed shows is the site's one status view (useSyncStatus `view`).
 */
export function SiteBanners() {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const signIn = useSignIn();
  const explain = useErrorText();
  const { status, view } = useSyncStatus(site.id);
  const missing = Array.from(
    new Set([...(status.data?.missingScopes ?? []), ...site.missingScopes]),
  );
  const lastError = status.data?.lastError;
  const busy = signIn.pending && signIn.siteId === site.id;

  return (
    <div className="banners">
      {view.state === 'offline' && (
        <div className="banner warning" role="status" data-testid="offline-banner">
          <strong>{t('sync.offline.title')}</strong> {t('sync.offline.text')}
        </div>
      )}
      {view.state === 'not-answering' && (
        <div className="banner warning" role="status" data-testid="not-answering-banner">
          <strong>{t('siteStatus.notAnswering.title', { site: site.label })}</strong>{' '}
          {t('siteStatus.notAnswering.text')}
        </div>
      )}
      {(site.status === 'sign-in-needed' ||
        (site.status === 'signed-out' && site.lastSyncedAt !== null)) &&
        !busy && (
          <div className="banner danger" role="alert" data-testid="sign-in-again">
            <span>
              {site.status === 'sign-in-needed'
                ? t(
                    site.signInUnreadable === true ? 'sync.signInUnreadable' : 'sync.signInNeeded',
                    { site: site.label },
                  )
                : t('sync.signedOut', { site: site.label })}
            </span>
            <button
              type="button"
              className="button small primary"
              onClick={() => void signIn.signIn(site.id)}
            >
              {t('sync.signInAgain')}
            </button>
          </div>
        )}
      <SignInPanel siteId={site.id} siteLabel={site.label} />
      {site.status === 'sign-out-unconfirmed' && !busy && (
        <div className="banner danger" role="alert" data-testid="sign-out-unconfirmed">
          <span>{t('sync.signOutUnconfirmed', { site: site.label })}</span>
          <button
            type="button"
            className="button small primary"
            onClick={() => void signIn.signIn(site.id)}
          >
            {t('sync.signInAgain')}
          </button>
        </div>
      )}
      {site.status === 'sign-out-pending' && (
        <div className="banner info" role="status" data-testid="sign-out-pending">
          {t('sync.signOutPending')}
        </div>
      )}
      {missing.length > 0 && (
        <div className="banner info" data-testid="missing-scopes">
          {(site.declinedScopes?.length ?? 0) > 0 && (
            <p data-testid="scopes-declined">{t('sync.scopeDeclined', { site: site.label })}</p>
          )}
          <ul className="plain">
            {missing.map((s) => (
              <li key={s}>{t(missingScopeKey(s), { scope: s })}</li>
            ))}
          </ul>
          {site.status === 'ready' && (
            <button
              type="button"
              className="button small"
              onClick={() => void signIn.signIn(site.id)}
            >
              {t('sync.signInAgain')}
            </button>
          )}
        </div>
      )}
      {(status.data?.keptNewest ?? [])
        .filter((k) => k.part === 'notifications')
        .map((k) => (
          <div key={k.part} className="banner info" role="status" data-testid="kept-newest">
            {t('sync.keptNewestNotices', {
              site: site.label,
              kept: k.kept.toLocaleString(i18n.language),
            })}
          </div>
        ))}
      {lastError && view.state === 'failed' && site.status === 'ready' && (
        <div className="banner warning" role="status" data-testid="sync-error">
          <strong>{t('sync.lastRunFailed')}</strong> {explain(lastError).what}{' '}
          {explain(lastError).next}
        </div>
      )}
    </div>
  );
}
