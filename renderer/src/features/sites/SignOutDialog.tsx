import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { call } from '../../api';
import { refreshQueries } from '../../query';
import { Dialog } from '../../ui/Dialog';
import { ErrorState } from '../../ui/ErrorState';

/** Whether a site has a sign-in to end (the same rule everywhere the app offers "Sign out"). */
export const canSignOut = (s: SiteSummary): boolean =>
  s.status === 'ready' || s.status === 'sign-in-needed';

/**
 * "Sign out of …?" with the choice to keep or remove this computer's copy of the school's data. The
 * one dialog every place that offers sign-out opens (Settings, the site menu, Profile): the core
 * revokes with the refresh token, then forgets the pair (and, if asked, the data). `onDone` gets
 * the sentence saying what happened, for a status line.
 */
export function SignOutDialog({
  site,
  onClose,
  onDone,
}: {
  /** The site to sign out of; null: the dialog is closed. */
  readonly site: SiteSummary | null;
  readonly onClose: () => void;
  readonly onDone: (notice: string) => void;
}) {
  const { t } = useTranslation();
  // Only there while asked: the places offering sign-out can share a screen, and one question is on
  // the page at a time.
  if (!site) return null;
  return (
    <Dialog
      open
      title={t('settings.sites.signOutTitle', { site: site.label })}
      onClose={onClose}
      testId="sign-out-dialog"
    >
      {/* Keyed by site: every opening starts from "keep the data" with no old error shown. */}
      <SignOutBody key={site.id} site={site} onClose={onClose} onDone={onDone} />
    </Dialog>
  );
}

function SignOutBody({
  site,
  onClose,
  onDone,
}: {
  readonly site: SiteSummary;
  readonly onClose: () => void;
  readonly onDone: (notice: string) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [keepData, setKeepData] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await call('sites:sign-out', { siteId: site.id, removeData: !keepData });
      await refreshQueries(client);
      onDone(
        r.localOnly === true
          ? t('settings.sites.signedOutLocalOnly', { site: site.label })
          : r.pending
            ? t('settings.sites.signOutQueued')
            : t('settings.sites.signedOut'),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>{t('settings.sites.signOutText')}</p>
      <label className="toggle">
        <input
          type="checkbox"
          checked={keepData}
          onChange={(e) => setKeepData(e.target.checked)}
          data-testid="keep-data"
        />{' '}
        {t('settings.sites.keepData')}
      </label>
      <p className="muted small">
        {keepData ? t('settings.sites.keepDataYes') : t('settings.sites.keepDataNo')}
      </p>
      {error !== null && <ErrorState error={error} compact />}
      <div className="row end">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() => void confirm()}
          disabled={busy}
          data-testid="confirm-sign-out"
        >
          {t('settings.sites.signOut')}
        </button>
      </div>
    </>
  );
}
