import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, LibraryBig, RotateCw, Settings, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api';
import { refreshQueries } from '../query';
import { Dialog } from '../ui/Dialog';
import { ErrorState } from '../ui/ErrorState';
import { useApp } from '../state/context';
import { useReleaseFirstScreen } from '../state/first-screen';

/**
 * What a screen shows when it could not be drawn: the ways out (try again, another screen,
 * Settings, remove the site), so one thing a site sent can never leave the window blank. The
 * navigation stays beside it.
 */
export function ScreenFallback({ onRetry }: { readonly onRetry: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { site, route, navigate } = useApp();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    if (!site) return;
    setBusy(true);
    setError(null);
    try {
      await call('sites:remove', { siteId: site.id });
      setConfirming(false);
      await refreshQueries(client);
      navigate({ screen: 'library' });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="screen">
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          {t('boundary.title')}
        </h1>
      </div>
      <div className="error-state" role="alert" data-testid="screen-boundary">
        <CircleAlert aria-hidden="true" />
        <div className="error-body">
          <p>{site ? t('boundary.what', { site: site.label }) : t('boundary.whatNoSite')}</p>
          <p className="muted">{t('boundary.next')}</p>
          <div className="row">
            <button type="button" className="button" onClick={onRetry} data-testid="boundary-retry">
              <RotateCw aria-hidden="true" />
              {t('common.retry')}
            </button>
            {route.screen !== 'library' && site && (
              <button
                type="button"
                className="button"
                onClick={() => navigate({ screen: 'library' })}
                data-testid="boundary-library"
              >
                <LibraryBig aria-hidden="true" />
                {t('boundary.library')}
              </button>
            )}
            {route.screen !== 'settings' && (
              <button
                type="button"
                className="button"
                onClick={() => navigate({ screen: 'settings' })}
                data-testid="boundary-settings"
              >
                <Settings aria-hidden="true" />
                {t('boundary.settings')}
              </button>
            )}
            {site && (
              <button
                type="button"
                className="button danger"
                onClick={() => setConfirming(true)}
                data-testid="boundary-remove"
              >
                <Trash2 aria-hidden="true" />
                {t('boundary.remove', { site: site.label })}
              </button>
            )}
          </div>
        </div>
      </div>
      <Dialog
        open={confirming}
        title={t('settings.sites.removeTitle', { site: site?.label ?? '' })}
        onClose={() => setConfirming(false)}
        testId="boundary-remove-dialog"
      >
        <p>{t('settings.sites.removeText')}</p>
        {error !== null && <ErrorState error={error} compact />}
        <div className="row end">
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => void remove()}
            disabled={busy}
            data-testid="boundary-confirm-remove"
          >
            {t('settings.sites.removeConfirm')}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/**
 * The last net, around the whole window: a reload is the one way out left when the shell itself
 * failed.
 */
export function WindowFallback() {
  const { t } = useTranslation();
  useReleaseFirstScreen();
  return (
    <main className="main" id="main">
      <div className="error-state" role="alert" data-testid="window-boundary">
        <CircleAlert aria-hidden="true" />
        <div className="error-body">
          <h1 className="error-title">{t('boundary.windowTitle')}</h1>
          <p className="muted">{t('boundary.windowNext')}</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" />
            {t('boundary.reload')}
          </button>
        </div>
      </div>
    </main>
  );
}
