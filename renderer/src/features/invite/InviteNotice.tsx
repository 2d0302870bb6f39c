import { useTranslation } from 'react-i18next';
import type { InviteOutcome, InviteRefusal } from '../../../../electron/common/files-and-invites';
import { assertNever } from '../../../../electron/common/result';
import './invite.css';

function refusalKey(refusal: InviteRefusal): string {
  switch (refusal) {
    case 'too-long':
    case 'malformed':
    case 'not-an-invite':
    case 'duplicate-parameter':
    case 'secret-in-link':
    case 'site-missing':
    case 'site-invalid':
    case 'site-not-https':
    case 'site-has-credentials':
    case 'site-not-origin':
    case 'client-id-missing':
    case 'client-id-invalid':
      return `invite.refusal.${refusal}`;
    default:
      return assertNever(refusal, 'invite refusal');
  }
}

/**
 * Above the add-site form when the app was opened with an invite link: what the link says (site
 * address in ASCII, application ID), to be checked before the student confirms with the form's own
 * button; or why the link was refused.
 */
export function InviteNotice({
  invite,
  onDismiss,
}: {
  readonly invite: InviteOutcome;
  readonly onDismiss: () => void;
}) {
  const { t } = useTranslation();
  if (!invite.ok) {
    return (
      <section
        className="card invite-notice refused"
        role="alert"
        aria-labelledby="invite-refused-title"
        data-testid="invite-refused"
        data-refusal={invite.refusal}
      >
        <h2 id="invite-refused-title">{t('invite.refusedTitle')}</h2>
        <p>{t(refusalKey(invite.refusal))}</p>
        <p className="muted">{t('invite.refusedNext')}</p>
      </section>
    );
  }
  return (
    <section
      className="card invite-notice attention"
      aria-labelledby="invite-title"
      data-testid="invite-notice"
    >
      <h2 id="invite-title">{t('invite.title')}</h2>
      <p>{t('invite.intro')}</p>
      <dl className="kv">
        <dt>{t('invite.site')}</dt>
        <dd>
          <code data-testid="invite-site">{invite.invite.baseUrl}</code>
        </dd>
        <dt>{t('invite.clientId')}</dt>
        <dd>
          <code data-testid="invite-client-id">{invite.invite.clientId}</code>
        </dd>
      </dl>
      <button type="button" className="button" onClick={onDismiss} data-testid="invite-dismiss">
        {t('invite.dismiss')}
      </button>
    </section>
  );
}
