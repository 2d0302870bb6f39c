import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReminderRuleKind } from '../../../../electron/common/plan-contract';
import { call } from '../../api';
import { formatDateTime } from '../../ui/format';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Put off an item's reminders from Today: an hour, or to tomorrow morning; says until when. */
export function SnoozeButtons({
  kind,
  siteId,
  subjectId,
}: {
  readonly kind: ReminderRuleKind;
  readonly siteId: string;
  readonly subjectId: string;
}) {
  const { t, i18n } = useTranslation();
  const [until, setUntil] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const snooze = (when: 'hour' | 'morning') =>
    void call('reminders:snooze', {
      kind,
      items: [{ siteId, subjectId }],
      until: when,
      timeZone: zone(),
    }).then(
      (r) => (setUntil(r.until), setFailed(false)),
      () => setFailed(true),
    );
  if (until)
    return (
      <span className="muted small" role="status" data-testid="snoozed-until">
        {t('snooze.until', { date: formatDateTime(until, i18n.language) })}
      </span>
    );
  return (
    <span
      className="snooze-buttons"
      data-testid="snooze"
      data-kind={kind}
      data-site-id={siteId}
      data-subject-id={subjectId}
    >
      <button
        type="button"
        className="button small"
        onClick={() => snooze('hour')}
        data-testid="snooze-hour"
      >
        {t('snooze.hour')}
      </button>
      <button
        type="button"
        className="button small"
        onClick={() => snooze('morning')}
        data-testid="snooze-morning"
      >
        {t('snooze.morning')}
      </button>
      {failed && <span role="alert">{t('snooze.failed')}</span>}
    </span>
  );
}
