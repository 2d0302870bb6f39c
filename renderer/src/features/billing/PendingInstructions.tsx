import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentView } from '../../../../electron/common/view-models';
import { useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { Instructions } from './Instructions';

const paymentKey = (p: PaymentView) => p.paymentId;
/** Codes added per "show more" (a school may leave many codes open). */
const MORE = 20;

/**
 * Unpaid ATM / convenience-store payments still payable, soonest deadline first, with the code to
 * copy. The first ones come with the billing summary (so the screen's head renders at once, nothing
 * shifts the list below); the rest are paged in (billing:instructions) when the student asks.
 */
export function PendingInstructions({
  siteId,
  preview,
  count,
}: {
  readonly siteId: string;
  readonly preview: readonly PaymentView[];
  readonly count: number;
}) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const more = useChannelPages(
    'billing:instructions',
    { siteId },
    { getKey: paymentKey, firstPageSize: preview.length + MORE, pageSize: MORE, enabled: expanded },
  );
  const shown = expanded && more.items.length > 0 ? more.items : preview;
  const total = expanded && more.first ? more.total : count;
  const left = total - shown.length;
  if (shown.length === 0) return null;
  return (
    <section
      aria-labelledby="pending-title"
      className="pending-instructions card attention"
      data-testid="pending-instructions"
    >
      <h2 id="pending-title" tabIndex={-1}>
        {t('billing.pendingTitle', { count: total })}
      </h2>
      {shown.map((p) => (
        <Instructions key={p.paymentId} payment={p} showAmount anchor />
      ))}
      {more.query.isError && <ErrorState error={more.query.error} compact />}
      {left > 0 && (
        <button
          type="button"
          className="button"
          onClick={() => (expanded ? more.loadMore() : setExpanded(true))}
          disabled={more.query.isFetching}
          data-testid="more-instructions"
        >
          {t('billing.morePending', { count: Math.min(left, MORE) })}
        </button>
      )}
    </section>
  );
}
