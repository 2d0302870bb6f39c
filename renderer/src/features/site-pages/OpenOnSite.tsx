import { ArrowUpRight } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { call } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { useSchoolReachable } from '../../state/sync-status';

export type SitePageTarget = ChannelInput<'site:open-page'>['page'];

interface Props {
  readonly siteId: string;
  readonly page: SitePageTarget;
  /**
   * The visible words; the ↗ and the accessible name say it opens the school's site in the browser.
   */
  readonly label: string;
  /** What is opened, for the accessible name ("Open “Welcome” on Demo School’s site"). */
  readonly what?: string;
  readonly small?: boolean;
  readonly primary?: boolean;
  readonly testId?: string;
  /**
   * In a long list: the offline reason is read out and shown as a tooltip, not printed on every
   * row.
   */
  readonly quietReason?: boolean;
}

/**
 * A button that opens the school's own page in the system browser (the core builds the address on
 * the site's origin only). While the school cannot be reached (useSchoolReachable: the one rule
 * every screen follows) it is disabled, and the reason is shown beside it, not only in a tooltip.
 */
export function OpenOnSite({
  siteId,
  page,
  label,
  what,
  small,
  primary,
  testId,
  quietReason,
}: Props) {
  const { t } = useTranslation();
  const reachable = useSchoolReachable(siteId);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const open = async () => {
    setError(null);
    setBusy(true);
    try {
      await call('site:open-page', { siteId, page });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const className = ['button', small ? 'small' : '', primary ? 'primary' : '', 'open-on-site']
    .filter(Boolean)
    .join(' ');
  return (
    <span className="open-on-site-wrap">
      <button
        type="button"
        className={className}
        onClick={() => void open()}
        disabled={!reachable || busy}
        aria-label={t('sitePages.ariaLabel', { label: what ?? label })}
        aria-describedby={reachable ? undefined : reasonId}
        title={reachable ? t('sitePages.hint') : t('sitePages.offline')}
        data-testid={testId}
        data-kind={page.kind}
      >
        {label}
        <ArrowUpRight aria-hidden="true" className="open-on-site-arrow" />
      </button>
      {!reachable && (
        <span
          id={reasonId}
          className={quietReason ? 'visually-hidden' : 'muted small open-on-site-reason'}
        >
          {t('sitePages.offline')}
        </span>
      )}
      {error !== null && <ErrorState error={error} compact />}
    </span>
  );
}
