import { useTranslation } from 'react-i18next';
import './reminders.css';

/**
 * The first reminder arrived in the browser host and the browser was never asked about
 * notifications: asked here, in the page, by the student's click ("on first need"), never by a
 * browser prompt out of nowhere. It does not take the focus; "Not now" puts it away until the app
 * is opened again.
 */
export function ReminderPrompt({
  onAllow,
  onLater,
}: {
  readonly onAllow: () => void;
  readonly onLater: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="banner info reminder-prompt" role="status" data-testid="reminder-prompt">
      <span>{t('reminders.prompt.text')}</span>
      <div className="row end">
        <button
          type="button"
          className="button"
          onClick={onLater}
          data-testid="reminder-prompt-later"
        >
          {t('reminders.prompt.later')}
        </button>
        <button
          type="button"
          className="button primary"
          onClick={onAllow}
          data-testid="reminder-prompt-allow"
        >
          {t('reminders.prompt.allow')}
        </button>
      </div>
    </div>
  );
}
