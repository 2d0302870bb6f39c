import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { useApp } from '../../state/context';
import { ErrorState } from '../../ui/ErrorState';

/**
 * "Paste your invite link", the usual way to connect a school (its operator creates the app's
 * application ID and sends the link): for a link the system could not hand to the app (the browser
 * host, a scheme not yet registered). The core reads it like any other; the add-site form then
 * shows it to confirm.
 */
export function InvitePasteForm() {
  const { t } = useTranslation();
  const { navigate } = useApp();
  const id = useId();
  const [link, setLink] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const invite = await call('invite:parse', { link: link.slice(0, 8192) });
      navigate({ screen: 'add-site', invite });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form
      className="form card invite-paste"
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${id}-title`}
      data-testid="invite-paste"
    >
      <h2 id={`${id}-title`}>{t('invite.paste.title')}</h2>
      <p className="muted" id={`${id}-hint`}>
        {t('invite.paste.hint')}
      </p>
      <div className="field">
        <label htmlFor={id}>{t('invite.paste.label')}</label>
        <input
          id={id}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="learning-desktop://add-site?…"
          aria-describedby={`${id}-hint`}
          value={link}
          onChange={(e) => setLink(e.target.value)}
        />
      </div>
      {error !== null && <ErrorState error={error} compact />}
      <button type="submit" className="button primary" disabled={link.trim() === ''}>
        {t('invite.paste.submit')}
      </button>
    </form>
  );
}
