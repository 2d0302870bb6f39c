import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../app/context';

/** Which site the screens show; only offered when there is more than one. */
export function SiteSwitcher() {
  const { t } = useTranslation();
  const { sites, site, selectSite, navigate } = useApp();
  const id = useId();
  if (!site) return null;
  if (sites.length < 2) {
    return (
      <span className="site-name" data-testid="site-name">
        {site.label}
        {site.isDemo && <span className="tag">{t('sites.demoTag')}</span>}
      </span>
    );
  }
  return (
    <div className="site-switcher">
      <label htmlFor={id} className="visually-hidden">
        {t('sites.switcher.label')}
      </label>
      <select
        id={id}
        value={site.id}
        data-testid="site-switcher"
        onChange={(e) => {
          selectSite(e.target.value);
          navigate({ screen: 'library' });
        }}
      >
        {sites.map((s) => (
          <option key={s.id} value={s.id}>
            {s.isDemo ? `${s.label} (${t('sites.demoTag')})` : s.label}
          </option>
        ))}
      </select>
    </div>
  );
}
