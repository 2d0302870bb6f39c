import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';
import { SignInDoctor } from '../sites/index';

/**
 * Settings > Schools > "Check sign-in": the sign-in doctor on demand, for the school the student
 * picks (the one shown first), without waiting for a sign-in to fail. The report is the same as
 * under a failed sign-in.
 */
export function DoctorSettings() {
  const { t } = useTranslation();
  const { sites, site, route } = useApp();
  const [chosen, setChosen] = useState<string | null>(null);
  const selectId = useId();
  const cardRef = useRef<HTMLElement>(null);
  // Arriving from the command palette's "Check sign-in": the check's button is brought into view
  // and focused, after the section's own heading took focus (SettingsLayout, a frame after
  // arrival).
  const intent = route.screen === 'settings' ? route.intent : undefined;
  useEffect(() => {
    if (!intent?.checkSignIn) return;
    let inner = 0;
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(() => {
        const button = cardRef.current?.querySelector<HTMLElement>(
          '[data-testid="doctor-run"], [data-testid="doctor-again"]',
        );
        cardRef.current?.scrollIntoView({ block: 'start' });
        button?.focus({ preventScroll: true });
      });
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, [intent]);
  const target = sites.find((s) => s.id === chosen) ?? site ?? sites[0];
  if (!target) return null;
  return (
    <section
      className="card"
      aria-labelledby="doctor-settings-title"
      data-testid="doctor-settings"
      ref={cardRef}
    >
      <h3 id="doctor-settings-title">{t('settings.doctor.title')}</h3>
      <p className="muted">{t('settings.doctor.explain')}</p>
      {sites.length > 1 && (
        <div className="field inline">
          <label htmlFor={selectId}>{t('settings.doctor.school')}</label>
          <select
            id={selectId}
            value={target.id}
            onChange={(e) => setChosen(e.target.value)}
            data-testid="doctor-site-select"
          >
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {/* A new school is a new check: the previous school's report does not stay on screen under the other name. */}
      <SignInDoctor
        key={target.id}
        target={{ siteId: target.id }}
        siteLabel={target.label}
        buttonLabel={t('settings.doctor.run')}
      />
    </section>
  );
}
