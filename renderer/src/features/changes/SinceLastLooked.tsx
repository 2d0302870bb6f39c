import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangeView } from '../../../../electron/common/view-models';
import { call } from '../../api';
import { useChannel } from '../../query';
import { refreshQueries } from '../../query-refresh';
import { useApp } from '../../state/context';
import type { Route } from '../../state/routes';
import { formatDate } from '../../ui/format';

/**
 * Where a change leads: the course, the order, the product or event, the library for a course gone.
 */
export function changeRoute(c: ChangeView): Route {
  switch (c.kind) {
    case 'lectures-new':
    case 'lectures-unlocked':
    case 'access-moved':
    case 'access-ended':
    case 'course-added':
      return { screen: 'course', courseId: c.itemId };
    case 'course-gone':
      return { screen: 'library' };
    case 'payment-paid':
    case 'payment-expired':
    case 'payment-refunded':
      return c.tradeNo ? { screen: 'billing', tradeNo: c.tradeNo } : { screen: 'billing' };
    case 'product-new':
    case 'event-new':
      return { screen: 'entitlements', itemId: c.itemId };
  }
}

function useLine() {
  const { t, i18n } = useTranslation();
  return (c: ChangeView) => {
    const vars = {
      title: c.title,
      count: c.count ?? 0,
      date: c.to ? formatDate(c.to, i18n.language) : '',
    };
    if (c.kind === 'access-moved' && c.to === null) return t('changes.kind.access-open', vars);
    return t(`changes.kind.${c.kind}`, vars);
  };
}

/**
 * Today's "Since you last looked": what changed at the syncs since Today last showed it, by school,
 * each line a button to its place. Leaving Today (or "Mark as seen") marks what was shown as seen,
 * so it shows once.
 */
export function SinceLastLooked() {
  const { t } = useTranslation();
  const { sites, site, selectSite, navigate } = useApp();
  const client = useQueryClient();
  const q = useChannel('changes:unseen', undefined);
  const line = useLine();
  const groups = q.data ?? [];
  const newest = Math.max(0, ...groups.flatMap((g) => g.changes.map((c) => c.id)));
  const shown = useRef(0);
  shown.current = Math.max(shown.current, newest);
  const markSeen = (upTo: number) =>
    call('changes:mark-seen', { upTo })
      .catch(() => undefined)
      .finally(
        () => void refreshQueries(client, { predicate: (x) => x.queryKey[0] === 'changes:unseen' }),
      );
  // Seen once Today has shown them: marked when the student leaves Today.
  useEffect(
    () => () => {
      if (shown.current > 0) void markSeen(shown.current);
    },
    [],
  );
  if (groups.length === 0) return null;
  const label = (id: string) => sites.find((s) => s.id === id)?.label ?? '';
  return (
    <section
      aria-labelledby="today-changes-title"
      className="today-section"
      data-testid="since-last-looked"
    >
      <h2 id="today-changes-title">{t('changes.title')}</h2>
      {groups.map((g) => (
        <div key={g.siteId} data-testid="changes-school" data-site-id={g.siteId}>
          {sites.length > 1 && <h3 className="small muted">{label(g.siteId)}</h3>}
          <ul className="plain today-rows">
            {g.changes.map((c) => (
              <li key={c.id} data-testid="change-line" data-kind={c.kind}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    if (g.siteId !== site?.id) selectSite(g.siteId);
                    navigate(changeRoute(c));
                  }}
                >
                  {line(c)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        onClick={() => void markSeen(newest)}
        data-testid="changes-seen"
      >
        {t('changes.markSeen')}
      </button>
    </section>
  );
}
