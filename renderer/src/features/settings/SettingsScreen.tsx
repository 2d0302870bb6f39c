import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  LanguagePreference,
  Settings,
  ThemePreference,
} from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { applyLanguage } from '../../i18n';
import { useChannel, useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { Loading, ScreenHeader } from '../../ui/states';
import { protectionDescription } from './protection';
import { applyTheme } from './SettingsApplier';
import { SitesSettings } from './SitesSettings';
import { StorageSettings } from '../downloads/index';
import {
  BackgroundSettings,
  NotificationSettings,
  ShortcutsSettings,
  UpdatesSettings,
} from '../desktop/index';
import { ReminderRules, ReminderSettings } from '../reminders/index';
import { AssistantSettings } from '../assistant/index';
import { FeedSettings } from '../calendar-feed/index';
import { DemoFaultsSettings } from './DemoFaultsSettings';
import { DoctorSettings } from './DoctorSettings';
import { SettingsLayout } from './SettingsLayout';
import { SETTINGS_SECTIONS, type SettingsSection } from '../../state/routes';
import { intervalLabel } from './labels';
import { assertNever } from '../../../../electron/common/result';
import { useUpdateSettings } from '../../state/settings';

const INTERVALS = [0, 5, 15, 30, 60, 240] as const;

function Preferences({ settings }: { readonly settings: Settings }) {
  const { t } = useTranslation();
  const ids = { lang: useId(), theme: useId() };
  const upd = useUpdateSettings();
  return (
    <section className="card" aria-labelledby="prefs-title">
      <h3 id="prefs-title">{t('settings.prefs.title')}</h3>
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
      {upd.error && <ErrorState error={upd.error} compact />}
    </section>
  );
}

/** How often every school is synced, and "Sync now" for the one shown. */
function SyncSettings({ settings }: { readonly settings: Settings | undefined }) {
  const { t } = useTranslation();
  const { site } = useApp();
  const ids = { sync: useId() };
  const upd = useUpdateSettings();
  return (
    <section className="card" aria-labelledby="sync-title">
      <h3 id="sync-title">{t('settings.sync.title')}</h3>
      {settings && (
        <div className="field inline">
          <label htmlFor={ids.sync}>{t('settings.sync.interval')}</label>
          <select
            id={ids.sync}
            value={settings.autoSyncMinutes}
            onChange={(e) => upd.update({ autoSyncMinutes: Number(e.target.value) })}
            data-testid="auto-sync-select"
          >
            {(INTERVALS as readonly number[]).includes(settings.autoSyncMinutes) ? null : (
              <option value={settings.autoSyncMinutes}>
                {intervalLabel(settings.autoSyncMinutes, t)}
              </option>
            )}
            {INTERVALS.map((m) => (
              <option key={m} value={m}>
                {intervalLabel(m, t)}
              </option>
            ))}
          </select>
        </div>
      )}
      {upd.error && <ErrorState error={upd.error} compact />}
      {site && (
        <SyncNowButton siteId={site.id} siteLabel={site.label} ready={site.status === 'ready'} />
      )}
    </section>
  );
}

function SyncNowButton({
  siteId,
  siteLabel,
  ready,
}: {
  readonly siteId: string;
  readonly siteLabel: string;
  readonly ready: boolean;
}) {
  const { t } = useTranslation();
  const syncNow = useChannelMutation('sync:now');
  return (
    <>
      <p className="muted">{t('settings.sync.explain', { site: siteLabel })}</p>
      <button
        type="button"
        className="button"
        onClick={() => syncNow.mutate({ siteId })}
        disabled={syncNow.isPending || !ready}
      >
        {syncNow.isPending ? t('sync.running') : t('sync.now')}
      </button>
      {syncNow.data && (
        <p role="status" className="small">
          {t(`settings.sync.outcome.${syncNow.data.outcome}`)}
        </p>
      )}
      {syncNow.error && <ErrorState error={syncNow.error} compact />}
    </>
  );
}

function Security({ settings }: { readonly settings: Settings | undefined }) {
  const { t } = useTranslation();
  const q = useChannel('security:get-token-protection', undefined);
  const upd = useUpdateSettings();
  const id = useId();
  return (
    <section className="card" aria-labelledby="security-title" data-testid="token-protection">
      <h3 id="security-title">{t('settings.security.title')}</h3>
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
            <span data-testid="token-protection-description">
              {protectionDescription(q.data, t) ?? q.data.description}
            </span>
          </p>
          <details className="tech-details">
            <summary>{t('settings.techDetails')}</summary>
            <dl className="kv">
              <dt>{t('settings.security.backend')}</dt>
              <dd>
                <code>{q.data.backend}</code>
              </dd>
              <dt>{t('settings.security.persistent')}</dt>
              <dd>
                {q.data.persistent
                  ? t('settings.security.persistentYes')
                  : t('settings.security.persistentNo')}
              </dd>
            </dl>
          </details>
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

/** Node's process.platform in the words a student knows; another value is shown as it is. */
function systemName(platform: string): string {
  return (
    ({ darwin: 'macOS', win32: 'Windows', linux: 'Linux' } as Record<string, string>)[platform] ??
    platform
  );
}

function About() {
  const { t } = useTranslation();
  const q = useChannel('app:get-info', undefined, { staleTime: Infinity });
  return (
    <section className="card" aria-labelledby="about-title">
      <h3 id="about-title">{t('settings.about.title')}</h3>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} compact />
      ) : (
        <>
          <dl className="kv" data-testid="app-info">
            <dt>{t('settings.about.version')}</dt>
            <dd data-testid="app-version">{q.data.version}</dd>
            <dt>{t('settings.about.runsAs')}</dt>
            <dd>{t(`settings.about.runs.${q.data.host}`)}</dd>
            <dt>{t('settings.about.system')}</dt>
            <dd>{systemName(q.data.platform)}</dd>
            <dt>{t('settings.about.dataDir')}</dt>
            <dd data-testid="app-data-dir" className="break">
              {q.data.dataDir}
            </dd>
          </dl>
          <details className="tech-details">
            <summary>{t('settings.techDetails')}</summary>
            <dl className="kv">
              <dt>{t('settings.about.host')}</dt>
              <dd>
                <code data-testid="app-host">{q.data.host}</code>
              </dd>
              <dt>{t('settings.about.platform')}</dt>
              <dd>
                <code>{q.data.platform}</code>
              </dd>
            </dl>
          </details>
        </>
      )}
    </section>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  const demo = useChannel('demo:faults', undefined, { retry: false });
  const sections: readonly SettingsSection[] = SETTINGS_SECTIONS.filter(
    (s) => s !== 'demo' || demo.data?.running === true,
  );
  return (
    <div className="screen settings">
      <ScreenHeader title={t('settings.title')} />
      <SettingsLayout sections={sections}>
        {(section) => {
          switch (section) {
            case 'schools':
              return (
                <>
                  <SitesSettings />
                  <SyncSettings settings={q.data} />
                  <DoctorSettings />
                </>
              );
            case 'notifications':
              return (
                <>
                  <NotificationSettings />
                  <ReminderSettings />
                  <ReminderRules />
                  <FeedSettings />
                </>
              );
            case 'storage':
              return <StorageSettings />;
            case 'appearance':
              return q.isPending ? (
                <Loading />
              ) : q.isError ? (
                <ErrorState
                  title={t('settings.loadFailed')}
                  error={q.error}
                  onRetry={() => void q.refetch()}
                />
              ) : (
                <Preferences settings={q.data} />
              );
            case 'privacy':
              return <Security settings={q.data} />;
            case 'assistant':
              return <AssistantSettings />;
            case 'desktop':
              return (
                <>
                  <BackgroundSettings />
                  <ShortcutsSettings />
                </>
              );
            case 'demo':
              return <DemoFaultsSettings />;
            case 'about':
              return (
                <>
                  <About />
                  <UpdatesSettings />
                </>
              );
            default:
              return assertNever(section, 'settings section');
          }
        }}
      </SettingsLayout>
    </div>
  );
}
