import { useTranslation } from 'react-i18next';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { SignInPanel } from './SignInPanel';
import { useSignIn } from './sign-in';

/** A site added but never synced: nothing to show until the student signs in. */
export function SiteSignInScreen({ site }: { readonly site: SiteSummary }) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const busy = signIn.pending && signIn.siteId === site.id;
  return (
    <div className="welcome">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          {t('sites.signIn.title', { site: site.label })}
        </h1>
      </div>
      <SignInPanel siteId={site.id} siteLabel={site.label} />
      {!busy && !(signIn.siteId === site.id && signIn.error) && (
        <section className="card">
          <p>{t('sites.signIn.needed', { site: site.label })}</p>
          <p className="muted">{site.baseUrl}</p>
          <button type="button" className="button primary big" onClick={() => void signIn.signIn(site.id)} data-testid="sign-in-button">
            {t('sites.signIn.button')}
          </button>
        </section>
      )}
    </div>
  );
}
