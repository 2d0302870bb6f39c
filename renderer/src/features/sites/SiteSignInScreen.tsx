import { useTranslation } from 'react-i18next';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { SignInPanel } from './SignInPanel';
import { useSignIn } from './sign-in';

/** A site added but never synced: nothing to show until the student signs in. */
export function SiteSignInScreen({ site }: { readonly site: SiteSummary }) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const { route, navigateFrom } = useApp();
  // Signed in, the app lands where it does after the first school's sign-in: Today (unless the
  // student moved on).
  const start = () =>
    void signIn
      .signIn(site.id)
      .then((done) => done && navigateFrom(route.screen, { screen: 'today' }));
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
          <button
            type="button"
            className="button primary big"
            onClick={start}
            data-testid="sign-in-button"
          >
            {t('sites.signIn.button')}
          </button>
        </section>
      )}
    </div>
  );
}
