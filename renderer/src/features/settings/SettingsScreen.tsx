import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguagePreference, Settings, ThemePreference } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { applyLanguage } from '../../i18n';
import { useChannel, useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { Loading, ScreenHeader } from '../../ui/states';
import { protectionDescription } from './protection';
import { applyTheme } from './SettingsApplier';
import { SitesSettings } from './SitesSettings';
import { StorageSettings } from '../downloads/StorageSettings';
import { BackgroundSettings } from '../desktop/BackgroundSettings';
import { NotificationSettings } from '../desktop/NotificationSettings';
import { ShortcutsSettings } from '../desktop/ShortcutsList';
import { UpdatesSettings } from '../desktop/UpdatesSettings';
import { DemoFaultsSettings } from './DemoFaultsSettings';
import { useUpdateSettings } from './useSettings';

const INTERVALS = [0, 5, 15, 30, 60, 240] as const;

function Preferences({ settings }: { readonly settings: Settings }) {
  const { t } = useTranslation();
  const ids = { lang: useId(), theme: useId(), sync: useId() };
  const upd = useUpdateSettings();
  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">{t('settings.prefs.title')}</h2>
      <div className="field inline">
        <label htmlFor={ids.lang}>{t('settings.prefs.language')}</label>
        <select
          id={ids.lang}
          value={settings.language}
          data-testid="language-select"
          onChange={(e) => {
            const language = e.target.value as LanguagePreference;
            applyLanguage(language);
            upd.update({ language });
          }}
        >
          <option value="system">{t('settings.prefs.system')}</option>
          <option value="en" lang="en">
            English
          </option>
          <option value="zh-TW" lang="zh-TW">
            繁體中文
          </option>
        </select>
      </div>
      <div className="field inline">
        <label htmlFor={ids.theme}>{t('settings.prefs.theme')}</label>
        <select
          id={ids.theme}
          value={settings.theme}
          data-testid="theme-select"
          onChange={(e) => {
            const theme = e.target.value as ThemePreference;
            applyTheme(theme);
            upd.update({ theme });
          }}
        >
          <option value="system">{t('settings.prefs.system')}</option>
          <option value="light">{t('settings.prefs.light')}</option>
          <option value="dark">{t('settings.prefs.dark')}</option>
        </select>
      </div>
      <div className="field inline">
        <label htmlFor={ids.sync}>{t('settings.sync.interval')}</label>
        <select
          id={ids.sync}
          value={settings.autoSyncMinutes}
          onChange={(e) => upd.update({ autoSyncMinutes: Number(e.target.value) })}
          data-testid="auto-sync-select"
        >
          {(INTERVALS as readonly number[]).includes(settings.autoSyncMinutes) ? null : (
            <option value={settings.autoSyncMinutes}>{t('settings.sync.minutes', { count: settings.autoSyncMinutes })}</option>
          )}
          {INTERVALS.map((m) => (
            <option key={m} value={m}>
              {m === 0 ? t('settings.sync.off') : t('settings.sync.minutes', { count: m })}
            </option>
          ))}
        </select>
      </div>
      {upd.error && <ErrorState error={upd.error} compact />}
    </section>
  );
}

function SyncNow() {
  const { t } = useTranslation();
  const { site } = useApp();
  const syncNow = useChannelMutation('sync:now');
  if (!site) return null;
  return (
    <section className="card" aria-labelledby="sync-title">
      <h2 id="sync-title">{t('settings.sync.title')}</h2>
      <p className="muted">{t('settings.sync.explain', { site: site.label })}</p>
      <button
        type="button"
        className="button"
        onClick={() => syncNow.mutate({ siteId: site.id })}
        disabled={syncNow.isPending || site.status !== 'ready'}
      >
        {syncNow.isPending ? t('sync.running') : t('sync.now')}
      </button>
      {syncNow.data && (
        <p role="status" className="small">
          {t(`settings.sync.outcome.${syncNow.data.outcome}`)}
        </p>
      )}
      {syncNow.error && <ErrorState error={syncNow.error} compact />}
    </section>
  );
}

function Security({ settings }: { readonly settings: Settings | undefined }) {
  const { t } = useTranslation();
  const q = useChannel('security:get-token-protection', undefined);
  const upd = useUpdateSettings();
  const id = useId();
  return (
    <section className="card" aria-labelledby="security-title" data-testid="token-protection">
      <h2 id="security-title">{t('settings.security.title')}</h2>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} compact />
      ) : (
        <>
          <p>
            {q.data.weak ? (
              <strong className="state-badge warn">{t('settings.security.weak')}</strong>
            ) : (
              <strong className="state-badge ok">{t('settings.security.strong')}</strong>
            )}{' '}
            <span data-testid="token-protection-description">{protectionDescription(q.data, t) ?? q.data.description}</span>
          </p>
          <dl className="kv">
            <dt>{t('settings.security.backend')}</dt>
            <dd>
              <code>{q.data.backend}</code>
            </dd>
            <dt>{t('settings.security.persistent')}</dt>
            <dd>{q.data.persistent ? t('settings.security.persistentYes') : t('settings.security.persistentNo')}</dd>
          </dl>
          {q.data.weak && (
            <>
              <p className="muted">{t('settings.security.weakExplain')}</p>
              <div className="field checkbox">
                <input
                  id={id}
                  type="checkbox"
                  checked={settings?.allowWeakTokenStorage ?? false}
                  disabled={!settings}
                  onChange={(e) => upd.update({ allowWeakTokenStorage: e.target.checked })}
                />
                <label htmlFor={id}>{t('settings.security.allowWeak')}</label>
              </div>
            </>
          )}
          {upd.error && <ErrorState error={upd.error} compact />}
        </>
      )}
    </section>
  );
}

function About() {
  const { t } = useTranslation();
  const q = useChannel('app:get-info', undefined, { staleTime: Infinity });
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title">{t('settings.about.title')}</h2>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} compact />
      ) : (
        <dl className="kv" data-testid="app-info">
          <dt>{t('settings.about.version')}</dt>
          <dd data-testid="app-version">{q.data.version}</dd>
          <dt>{t('settings.about.dataDir')}</dt>
          <dd data-testid="app-data-dir" className="break">
            {q.data.dataDir}
          </dd>
          <dt>{t('settings.about.host')}</dt>
          <dd data-testid="app-host">{q.data.host}</dd>
          <dt>{t('settings.about.platform')}</dt>
          <dd>{q.data.platform}</dd>
        </dl>
      )}
    </section>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  return (
    <div className="screen settings">
      <ScreenHeader title={t('settings.title')} />
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState title={t('settings.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Preferences settings={q.data} />
      )}
      <SyncNow />
      <SitesSettings />
      <StorageSettings />
      <DemoFaultsSettings />
      <Security settings={q.data} />
      <NotificationSettings />
      <BackgroundSettings />
      <UpdatesSettings />
      <ShortcutsSettings />
      <About />
    </div>
  );
}
