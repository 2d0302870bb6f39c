import { ArrowRight, GraduationCap, Sparkles } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { useApp } from '../../state/context';
import { channelKey, refreshQueries, useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import type { InviteOutcome } from '../../../../electron/common/files-and-invites';
import { InviteNotice, InvitePasteForm } from '../invite/index';
import { AddSiteForm } from './AddSiteForm';
import { SignInPanel } from './SignInPanel';
import { useSignIn } from './sign-in';

/** First run (or "Add a site"): a school's invite link, its address, or the demo in one click. */
export function WelcomeScreen({
  first,
  invite,
}: {
  readonly first: boolean;
  readonly invite?: InviteOutcome;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { selectSite, sites, navigateFrom, navigate } = useApp();
  const signIn = useSignIn();
  const info = useChannel('app:get-info', undefined, { staleTime: Infinity });
  const [demoError, setDemoError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // A new start: an invite refused earlier, or a pasted link's error, is no longer what the student
  // is doing.
  const [pasteRun, setPasteRun] = useState(0);
  const tryDemo = async () => {
    setDemoError(null);
    setPasteRun((n) => n + 1);
    if (invite && !invite.ok) navigate({ screen: 'add-site' });
    setBusy(true);
    try {
      const added = await call('sites:add-demo');
      await refreshQueries(client, { queryKey: channelKey('sites:list') });
      const firstSite = added[0];
      if (firstSite) {
        selectSite(firstSite.id);
        if (firstSite.status !== 'ready')
          void signIn
            .signIn(firstSite.id)
            .then((done) => done && navigateFrom('add-site', { screen: 'today' }));
        else navigateFrom('add-site', { screen: 'today' });
      }
    } catch (e) {
      setDemoError(e);
    } finally {
      setBusy(false);
    }
  };

  const inFlight = signIn.siteId ? sites.find((s) => s.id === signIn.siteId) : undefined;
  // "Waiting for you to sign in" appears at the top while the student is at the demo card below:
  // bring it into view.
  const panel = useRef<HTMLDivElement>(null);
  const panelFor = inFlight?.id;
  useEffect(() => {
    if (panelFor) panel.current?.scrollIntoView({ block: 'nearest' });
  }, [panelFor]);

  return (
    <div className="welcome">
      <div className="screen-header welcome-header">
        {first && (
          <span className="welcome-mark" aria-hidden="true">
            <GraduationCap />
          </span>
        )}
        <h1 id="screen-title" tabIndex={-1}>
          {first ? t('sites.welcome.title') : t('sites.welcome.addTitle')}
        </h1>
      </div>
      {first && <p className="lead">{t('sites.welcome.lead')}</p>}
      <div ref={panel} className="welcome-sign-in">
        {inFlight && <SignInPanel siteId={inFlight.id} siteLabel={inFlight.label} />}
      </div>
      {invite && (
        <InviteNotice
          invite={invite}
          onDismiss={() => navigate({ screen: first ? 'add-site' : 'library' })}
        />
      )}
      {invite?.ok && (
        <AddSiteForm
          key={`${invite.invite.baseUrl} ${invite.invite.clientId}`}
          initial={invite.invite}
        />
      )}
      {/* The invite link first (the school's operator creates the app's application ID and
          sends it), then the address. */}
      {!invite?.ok && <InvitePasteForm key={pasteRun} />}
      {!invite?.ok && <AddSiteForm />}
      {info.data?.demoAvailable !== false && !invite?.ok && (
        <section className="card demo-card" aria-labelledby="demo-title">
          <h2 id="demo-title">
            <Sparkles className="demo-icon" aria-hidden="true" />
            {t('sites.welcome.demoTitle')}
          </h2>
          <p>{t('sites.welcome.demoText')}</p>
          <button
            type="button"
            className="button primary big"
            onClick={() => void tryDemo()}
            disabled={busy || signIn.pending}
            data-testid="try-demo"
          >
            {busy ? t('sites.welcome.demoStarting') : t('sites.welcome.tryDemo')}
            {!busy && <ArrowRight aria-hidden="true" />}
          </button>
          {demoError !== null && (
            <ErrorState error={demoError} onRetry={() => void tryDemo()} compact />
          )}
        </section>
      )}
    </div>
  );
}
