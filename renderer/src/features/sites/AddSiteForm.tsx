import { TriangleAlert } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import type { InviteView } from '../../../../electron/common/files-and-invites';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, toAppError } from '../../api';
import { channelKey, refreshQueries } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { useApp } from '../../state/context';
import { NoApplicationId } from './NoApplicationId';
import './add-site.css';
import { SignInDoctor } from './SignInDoctor';
import { useSignIn } from './sign-in';
import { validateAddSite, type AddSiteErrors } from './validate';

const DOCTOR_CODES = new Set([
  'site-unreachable',
  'discovery-invalid',
  'pkce-unsupported',
  'issuer-mismatch',
  'server-unavailable',
  'network-unavailable',
]);

/**
 * The school's address, and under "I have an application ID" the client_id (+ secret for a
 * confidential application), checked before anything is sent. Without an application ID the school
 * is only looked up, and the form says who can create one (the spec: member clients are created by
 * the school's operator, no self-serve). `initial`: filled in from a school's invite link; the
 * student still confirms with the button.
 */
export function AddSiteForm({ initial }: { readonly initial?: InviteView } = {}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { selectSite, navigateFrom } = useApp();
  const signIn = useSignIn();
  const ids = { url: useId(), client: useId(), secret: useId(), conf: useId() };
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? '');
  const [clientId, setClientId] = useState(initial?.clientId ?? '');
  const [confidential, setConfidential] = useState(false);
  const [clientSecret, setClientSecret] = useState('');
  const [errors, setErrors] = useState<AddSiteErrors>({});
  const [submitError, setSubmitError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The application ID and the confidential option, under a disclosure: the invite link is the
  // usual way in.
  const [hasId, setHasId] = useState(Boolean(initial?.clientId));
  // A school found without an application ID: its name, to say who can create one.
  const [noId, setNoId] = useState<{ readonly label: string; readonly baseUrl: string } | null>(
    null,
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateAddSite({
      baseUrl,
      clientId,
      confidential: hasId && confidential,
      clientSecret,
      needsClientId: hasId,
    });
    setErrors(found);
    setSubmitError(null);
    setNoId(null);
    const first = (['baseUrl', 'clientId', 'clientSecret'] as const).find((k) => found[k]);
    if (first) {
      document
        .getElementById(
          first === 'baseUrl' ? ids.url : first === 'clientId' ? ids.client : ids.secret,
        )
        ?.focus();
      return;
    }
    setBusy(true);
    if (!hasId) {
      // No application ID: look the school up, then say who can create one.
      try {
        setNoId(await call('sites:check', { baseUrl: baseUrl.trim() }));
      } catch (error) {
        setSubmitError(error);
      } finally {
        setBusy(false);
      }
      return;
    }
    try {
      const site = await call('sites:add', {
        baseUrl: baseUrl.trim(),
        clientId: clientId.trim(),
        ...(confidential ? { clientSecret: clientSecret.trim() } : {}),
      });
      await refreshQueries(client, { queryKey: channelKey('sites:list') });
      selectSite(site.id);
      // Once signed in, show what to do next (Today), the new school's courses among it.
      void signIn
        .signIn(site.id)
        .then((done) => done && navigateFrom('add-site', { screen: 'today' }));
    } catch (error) {
      setSubmitError(error);
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, name: keyof AddSiteErrors) =>
    errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

  return (
    <form
      className="form card"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="add-site-title"
      data-testid="add-site-form"
    >
      <h2 id="add-site-title">{t('sites.add.title')}</h2>
      <p className="muted">{t('sites.add.intro')}</p>
      <div className="field">
        <label htmlFor={ids.url}>{t('sites.add.baseUrl')}</label>
        <input
          id={ids.url}
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://school.example.com"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          {...field(ids.url, 'baseUrl')}
        />
        {errors.baseUrl && (
          <p id={`${ids.url}-error`} className="field-error">
            <TriangleAlert aria-hidden="true" />
            {t(errors.baseUrl)}
          </p>
        )}
      </div>
      <details
        className="app-id"
        open={hasId}
        onToggle={(e) => setHasId(e.currentTarget.open)}
        data-testid="has-application-id"
      >
        <summary>{t('sites.add.haveId')}</summary>
        <div className="field">
          <label htmlFor={ids.client}>{t('sites.add.clientId')}</label>
          <input
            id={ids.client}
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
            {...field(ids.client, 'clientId')}
          />
          <p className="hint">{t('sites.add.clientIdHint')}</p>
          {errors.clientId && (
            <p id={`${ids.client}-error`} className="field-error">
              <TriangleAlert aria-hidden="true" />
              {t(errors.clientId)}
            </p>
          )}
        </div>
        <div className="field checkbox">
          <input
            id={ids.conf}
            type="checkbox"
            checked={confidential}
            onChange={(e) => setConfidential(e.target.checked)}
          />
          <label htmlFor={ids.conf}>{t('sites.add.confidential')}</label>
        </div>
        {confidential && (
          <div className="field">
            <label htmlFor={ids.secret}>{t('sites.add.clientSecret')}</label>
            <input
              id={ids.secret}
              type="password"
              autoComplete="off"
              value={clientSecret}
              onChange={(e) => setClientSecret(e.target.value)}
              {...field(ids.secret, 'clientSecret')}
            />
            <p className="hint">{t('sites.add.clientSecretHint')}</p>
            {errors.clientSecret && (
              <p id={`${ids.secret}-error`} className="field-error">
                <TriangleAlert aria-hidden="true" />
                {t(errors.clientSecret)}
              </p>
            )}
          </div>
        )}
      </details>
      {noId && <NoApplicationId school={noId.label} baseUrl={noId.baseUrl} />}
      {submitError !== null && <ErrorState error={submitError} compact />}
      {/* The site could not be added because of the site or the network: the doctor can say which. */}
      {submitError !== null &&
        hasId &&
        clientId.trim() !== '' &&
        DOCTOR_CODES.has(toAppError(submitError).code) && (
          <SignInDoctor
            key={toAppError(submitError).message}
            target={{ baseUrl: baseUrl.trim(), clientId: clientId.trim() }}
            siteLabel={baseUrl.trim()}
          />
        )}
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? t('sites.add.adding') : t('sites.add.submit')}
      </button>
    </form>
  );
}
