import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { call } from '../../api';
import { useApp } from '../../state/context';
import { refreshQueries } from '../../query';
import { Dialog } from '../../ui/Dialog';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTime } from '../../ui/format';
import { ArchiveButton } from '../archive/index';
import { NotesOnRemove } from '../notes/index';
import { canSignOut, SignInPanel, SignOutDialog, siteStatusKey, useSignIn } from '../sites/index';

type Pending =
  { kind: 'sign-out'; site: SiteSummary } | { kind: 'remove'; site: SiteSummary } | null;

/**
 * Sign out (SignOutDialog: revoking, optionally keeping the offline copy) and remove a site with
 * all its data.
 */
export function SitesSettings() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { sites, site: activeSite, navigate, route } = useApp();
  const signIn = useSignIn();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [keepNotes, setKeepNotes] = useState(true);

  const close = () => {
    setPending(null);
    setError(null);
  };
  // The command palette's "Sign out of …" lands here with the confirmation already asked. Asked
  // once per arrival: the site list changing afterwards (the sign-out itself) must not ask again.
  const intent = route.screen === 'settings' ? route.intent : undefined;
  const handled = useRef<typeof intent>(undefined);
  useEffect(() => {
    const target = intent && sites.find((s) => s.id === intent.signOut);
    if (!intent || !target || handled.current === intent) return;
    handled.current = intent;
    setPending({ kind: 'sign-out', site: target });
  }, [intent, sites]);
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      await call('sites:remove', { siteId: pending.site.id });
      if (!keepNotes) await call('notes:forget-site', { siteId: pending.site.id });
      setNotice(t('settings.sites.removed', { site: pending.site.label }));
      await refreshQueries(client);
      setPending(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="sites-title" data-testid="sites-settings">
      <h3 id="sites-title">{t('settings.sites.title')}</h3>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {sites.length === 0 ? (
        <p className="muted">{t('settings.sites.none')}</p>
      ) : (
        <ul className="plain stack">
          {sites.map((s) => (
            <li key={s.id} className="site-row" data-testid="site-row">
              <div>
                <strong>{s.label}</strong>{' '}
                {s.isDemo && <span className="tag">{t('sites.demoTag')}</span>}
                <p className="muted small">
                  {s.baseUrl} · {t(siteStatusKey(s.status))}
                  {s.profile && <> · {s.profile.email}</>}
                  {s.lastSyncedAt && (
                    <>
                      {' '}
                      ·{' '}
                      {t('settings.sites.lastSynced', {
                        date: formatDateTime(s.lastSyncedAt, i18n.language),
                      })}
                    </>
                  )}
                </p>
              </div>
              <div className="row">
                {(s.status === 'signed-out' ||
                  s.status === 'sign-in-needed' ||
                  s.status === 'sign-out-unconfirmed') && (
                  <button
                    type="button"
                    className="button small"
                    onClick={() => void signIn.signIn(s.id)}
                  >
                    {t('sites.signIn.button')}
                  </button>
                )}
                {canSignOut(s) && (
                  <button
                    type="button"
                    className="button small"
                    onClick={() => setPending({ kind: 'sign-out', site: s })}
                    data-testid="sign-out"
                  >
                    {t('settings.sites.signOut')}
                  </button>
                )}
                <ArchiveButton siteId={s.id} siteLabel={s.label} />
                <button
                  type="button"
                  className="button small danger"
                  onClick={() => setPending({ kind: 'remove', site: s })}
                  data-testid="remove-site"
                >
                  {t('settings.sites.remove')}
                </button>
              </div>
              {/* The active site's sign-in shows in the banners above every screen; another site's shows here. */}
              {s.id !== activeSite?.id && <SignInPanel siteId={s.id} siteLabel={s.label} />}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" onClick={() => navigate({ screen: 'add-site' })}>
        {t('nav.addSite')}
      </button>

      <SignOutDialog
        site={pending?.kind === 'sign-out' ? pending.site : null}
        onClose={close}
        onDone={(text) => {
          setNotice(text);
          setPending(null);
        }}
      />
      <Dialog
        open={pending?.kind === 'remove'}
        title={t('settings.sites.removeTitle', { site: pending?.site.label ?? '' })}
        onClose={close}
        testId="remove-dialog"
      >
        <p>{t('settings.sites.removeText')}</p>
        {pending?.kind === 'remove' && (
          <NotesOnRemove siteId={pending.site.id} keep={keepNotes} onChange={setKeepNotes} />
        )}
        {error !== null && <ErrorState error={error} compact />}
        <div className="row end">
          <button type="button" className="button" onClick={close}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="confirm-remove"
          >
            {t('settings.sites.removeConfirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
