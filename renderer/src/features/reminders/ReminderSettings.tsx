import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../electron/common/view-models';
import { ErrorState } from '../../ui/ErrorState';
import { useHostInfo } from '../../state/platform';
import { useDesktopSettings } from '../../state/settings';
import { askBrowserOnce } from './web-permission';

const KINDS = [
  { key: 'remindAccessEnding', label: 'reminders.accessEnding' },
  { key: 'remindLectureUnlocked', label: 'reminders.lectureUnlocked' },
  { key: 'remindEventStarting', label: 'reminders.eventStarting' },
] as const satisfies readonly { key: keyof Settings; label: string }[];

/**
 * Settings > Reminders: each kind on or off (electron/core/db/reminders.ts decides them). In the
 * browser host the page shows them with Web Notifications: the browser is asked for its permission
 * when the student turns a kind on, not before (or at the first reminder, ReminderPrompt).
 */
export function ReminderSettings() {
  const { t } = useTranslation();
  const { settings, update, error } = useDesktopSettings();
  const info = useHostInfo();
  const id = useId();
  const browserHost = info !== undefined && info.host !== 'electron';
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="reminder-settings">
      <h3 id={`${id}-title`}>{t('reminders.title')}</h3>
      <p className="muted">{t('reminders.explain')}</p>
      {KINDS.map((k) => (
        <div className="field checkbox" key={k.key}>
          <input
            id={`${id}-${k.key}`}
            type="checkbox"
            checked={settings?.[k.key] ?? true}
            disabled={!settings}
            onChange={(e) => {
              update({ [k.key]: e.target.checked });
              // The student's own click: the one moment a browser lets a page ask (and the one it
              // should).
              if (e.target.checked && browserHost) void askBrowserOnce();
            }}
            data-testid={`remind-${k.key}`}
          />
          <label htmlFor={`${id}-${k.key}`}>{t(k.label)}</label>
        </div>
      ))}
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
