import { KeyRound } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A school that answers but for which the student has no application ID: who can create one, and
 * how. The spec (service-spec "OAuth client"): a member client is created only by the site's
 * operator, in the admin area (Developers, then OAuth applications), which appears once the beta
 * feature "MCP connections" is on; there is no self-serve route, so the app cannot register one
 * itself.
 */
export function NoApplicationId({
  school,
  baseUrl,
}: {
  readonly school: string;
  readonly baseUrl: string;
}) {
  const { t } = useTranslation();
  // Keyboard and screen-reader users land on the answer.
  const focusOnMount = useCallback((el: HTMLElement | null) => el?.focus(), []);
  return (
    <section
      className="no-app-id"
      aria-labelledby="no-app-id-title"
      data-testid="no-application-id"
    >
      <h3 id="no-app-id-title" tabIndex={-1} ref={focusOnMount}>
        <KeyRound aria-hidden="true" />
        {t('sites.add.noId.title', { school })}
      </h3>
      <p>{t('sites.add.noId.text', { school, address: baseUrl })}</p>
      <ol>
        <li>{t('sites.add.noId.step1')}</li>
        <li>{t('sites.add.noId.step2')}</li>
        <li>{t('sites.add.noId.step3')}</li>
        <li>{t('sites.add.noId.step4')}</li>
      </ol>
    </section>
  );
}
