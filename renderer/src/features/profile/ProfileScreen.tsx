import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { useSite } from '../../state/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { Picture } from '../../ui/Picture';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { canSignOut, SignOutDialog } from '../sites/index';
import { ProgressSection } from '../progress/index';

const KNOWN_ROLES = new Set([
  'owner',
  'manager',
  'admin',
  'teacher',
  'teaching_assistant',
  'student',
]);

export function ProfileScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const q = useChannel('profile:get', { siteId: site.id });
  const role = (r: string) => (KNOWN_ROLES.has(r) ? t(`profile.role.${r}`) : r);
  const [signingOut, setSigningOut] = useState<SiteSummary | null>(null);
  const [notice, setNotice] = useState('');
  return (
    <div className="screen">
      <ScreenHeader title={t('profile.title')} />
      {notice && (
        <p role="status" className="notice" data-testid="profile-notice">
          {notice}
        </p>
      )}
      {q.isPending ? (
        <Loading shape="header" />
      ) : q.isError ? (
        <ErrorState
          title={t('profile.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      ) : (
        <>
          <section className="card profile" aria-labelledby="profile-name" data-testid="profile">
            <Picture
              className="avatar"
              siteId={site.id}
              src={q.data.avatarUrl}
              fallback={q.data.name.slice(0, 1)}
            />
            <div>
              <h2 id="profile-name">{q.data.name}</h2>
              <p className="muted">{q.data.email}</p>
              <p className="muted small">
                {site.status === 'ready'
                  ? t('profile.site', { site: site.label })
                  : t('profile.savedFrom', { site: site.label })}
              </p>
            </div>
            {canSignOut(site) && (
              <button
                type="button"
                className="button profile-sign-out"
                onClick={() => {
                  setNotice('');
                  setSigningOut(site);
                }}
                data-testid="profile-sign-out"
              >
                <LogOut size={16} aria-hidden={true} /> {t('profile.signOut')}
              </button>
            )}
          </section>
          <ProgressSection siteId={site.id} />
          <section aria-labelledby="schools-title">
            <h2 id="schools-title">{t('profile.schools')}</h2>
            {q.data.schools.length === 0 ? (
              <EmptyState title={t('profile.noSchools')} />
            ) : (
              <ul className="plain stack">
                {q.data.schools.map((s) => (
                  <li key={s.id} className="card school" data-testid="school">
                    <h3>{s.name}</h3>
                    <p>
                      {s.roles.map((r, i) => (
                        <span key={r} className={i === 0 ? 'tag accent' : 'tag'}>
                          {role(r)}
                        </span>
                      ))}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <SignOutDialog
        site={signingOut}
        onClose={() => setSigningOut(null)}
        onDone={(text) => {
          setSigningOut(null);
          setNotice(text);
        }}
      />
    </div>
  );
}
