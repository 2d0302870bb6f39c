import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState';
import { useHostInfo } from '../../state/platform';
import { useDesktopSettings } from '../../state/settings';

/**
 * Settings > In the background: the tray icon and start at login (Electron only; the browser host
 * says so).
 */
export function BackgroundSettings() {
  const { t } = useTranslation();
  const { settings, update, error } = useDesktopSettings();
  const info = useHostInfo();
  const ids = { tray: useId(), login: useId() };
  if (!info) return null;
  const electron = info.host === 'electron';
  return (
    <section
      className="card"
      aria-labelledby="desktop-background-title"
      data-testid="background-settings"
    >
      <h3 id="desktop-background-title">{t('desktop.background.title')}</h3>
      {!electron ? (
        <p className="muted" data-testid="background-unavailable">
          {t('desktop.background.notInThisHost')}
        </p>
      ) : (
        <>
          <div className="field checkbox">
            <input
              id={ids.tray}
              type="checkbox"
              checked={settings?.trayEnabled ?? false}
              disabled={!settings}
              onChange={(e) => update({ trayEnabled: e.target.checked })}
              data-testid="tray-enabled"
            />
            <label htmlFor={ids.tray}>
              {info.platform === 'darwin'
                ? t('desktop.background.menuBar')
                : t('desktop.background.tray')}
            </label>
          </div>
          <p className="muted small">
            {info.platform === 'darwin'
              ? t('desktop.background.closeMac')
              : t('desktop.background.closeOther')}
          </p>
          {info.platform !== 'linux' && (
            <div className="field checkbox">
              <input
                id={ids.login}
                type="checkbox"
                checked={settings?.startAtLogin ?? false}
                disabled={!settings}
                onChange={(e) => update({ startAtLogin: e.target.checked })}
                data-testid="start-at-login"
              />
              <label htmlFor={ids.login}>{t('desktop.background.startAtLogin')}</label>
            </div>
          )}
        </>
      )}
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
