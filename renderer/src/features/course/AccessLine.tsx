import { Ban, CalendarClock, Infinity as InfinityIcon, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LibraryCourse } from '../../../../electron/common/view-models';
import { daysUntil, formatDate } from '../../ui/format';
import { useNow } from '../../ui/useNow';

/** "Lifetime access" / "Access until <date>" / "Expires in 5 days" / "Expired on <date>". */
export function AccessLine({ course }: { readonly course: LibraryCourse }) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  if (course.hasLifetimeAccess) {
    return (
      <span className="access ok" data-testid="access">
        <InfinityIcon aria-hidden="true" />
        {t('library.access.lifetime')}
      </span>
    );
  }
  if (!course.expireDate) {
    return (
      <span className="access ok" data-testid="access">
        {t('library.access.noExpiry')}
      </span>
    );
  }
  // A date the site sent that names no day: say so, and neither "expired" nor "expires soon" (core
  // flags are off too).
  const days = daysUntil(course.expireDate, now);
  if (days === null) {
    return (
      <span className="access unknown" data-testid="access" data-date-unknown="true">
        <CalendarClock aria-hidden="true" />
        {t('library.access.unknownEnd')}
      </span>
    );
  }
  const date = formatDate(course.expireDate, i18n.language);
  if (course.isExpired) {
    return (
      <span className="access expired" data-testid="access">
        <Ban aria-hidden="true" />
        {t('library.access.expired', { date })}
      </span>
    );
  }
  if (course.expiresSoon) {
    return (
      <span className="access soon" data-testid="access">
        <TriangleAlert aria-hidden="true" />
        {t('library.access.expiresIn', { count: days, date })}
      </span>
    );
  }
  return (
    <span className="access ok" data-testid="access">
      <CalendarClock aria-hidden="true" />
      {t('library.access.until', { date })}
    </span>
  );
}
