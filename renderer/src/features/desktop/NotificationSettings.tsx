import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../electron/common/view-models';
import { ErrorState } from '../../ui/ErrorState';
import { useHostInfo } from '../../state/platform';
import { useDesktopSettings } from '../../state/settings';

const KINDS = [
  { key: 'notifyPaymentDue', label: 'desktop.notify.paymentDue' },
  { key: 'notifyNewNotices', label: 'desktop.notify.newNotices' },
  { key: 'notifySignIn', label: 'desktop.notify.signIn' },
  { key: 'notifyWeeklyDigest', label: 'desktop.notify.weeklyDigest' },
] as const satisfies readonly { key: keyof Settings; label: string }[];

/** Settings > Notifications on this computer: each kind of OS notification on or off. */
export function NotificationSettings() {
  const { t } = useTranslation();
  const { settings, update, error } = useDesktopSettings();
  const info = useHostInfo();
  const id = useId();
  // The browser host shows them through the Web Notifications API, which needs the browser's
  // permission.
  const webPermission =
    info && info.host !== 'electron' && typeof Notification !== 'undefined'
      ? Notification.permission
      : null;
  const [permission, setPermission] = useState(webPermission);
  // A box is ticked only for what can really be shown: in the browser host, not before the browser
  // allowed it (the choice itself is kept, and applies once it does).
  const shown = permission ?? webPermission;
  const blocked = shown !== null && shown !== 'granted';
  return (
    <section
      className="card"
      aria-labelledby="desktop-notify-title"
      data-testid="notification-settings"
    >
      <h3 id="desktop-notify-title">{t('desktop.notify.title')}</h3>
      <p className="muted">{t('desktop.notify.explain')}</p>
      {KINDS.map((k) => (
        <div className="field checkbox" key={k.key}>
          <input
            id={`${id}-${k.key}`}
            type="checkbox"
            checked={!blocked && (settings?.[k.key] ?? true)}
            disabled={!settings || blocked}
            onChange={(e) => update({ [k.key]: e.target.checked })}
            data-testid={`notify-${k.key}`}
          />
          <label htmlFor={`${id}-${k.key}`}>{t(k.label)}</label>
        </div>
      ))}
      {shown === 'default' && (
        <div className="field-actions">
          <button
            type="button"
            className="button"
            onClick={() => void Notification.requestPermission().then(setPermission)}
            data-testid="notify-permission"
          >
            {t('desktop.notify.allowInBrowser')}
          </button>
        </div>
      )}
      {shown === 'denied' && <p className="muted small">{t('desktop.notify.deniedInBrowser')}</p>}
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
