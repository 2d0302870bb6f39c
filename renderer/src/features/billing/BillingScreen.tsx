import { Receipt, SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  ORDER_FILTERS,
  type OrderFilter,
  type OrderView,
} from '../../../../electron/common/view-models';
import { useCallback, useDeferredValue, useEffect, useId, useRef, useState } from 'react';
import { useApp, useSite } from '../../state/context';
import { useChannel, useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatMoney } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { PagedList } from '../../ui/PagedList';
import { ExportOrdersButton, YearReceiptsButton } from '../export/index';
import { OrderGroup } from './OrderGroup';
import { PendingInstructions } from './PendingInstructions';
import { InstructionsPlace } from './Instructions';

const orderKey = (o: OrderView) => o.tradeNo;
/**
 * The year an order was placed, as the school wrote its date: the core's spending per year groups
 * by the same.
 */
const yearOf = (o: OrderView) => o.createdAt.slice(0, 4);
/**
 * A year heading; a date the school wrote unreadably is shown as unknown, not as its first four
 * characters.
 */
const yearLabel = (t: (key: string, vars?: Record<string, string>) => string, year: string) =>
  /^\d{4}$/.test(year) ? t('billing.yearHeading', { year }) : t('common.unknown');

/**
 * Totals and the soonest payable codes from the summary; the orders a page at a time as the student
 * scrolls.
 */
export function BillingScreen({ tradeNo }: { readonly tradeNo?: string }) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const summary = useChannel('billing:summary', { siteId: site.id });
  const [state, setState] = useState<OrderFilter>('all');
  const [search, setSearch] = useState('');
  // Typing stays responsive: the list follows the deferred text, and the previous list stays until
  // the next one is read.
  const query = useDeferredValue(search.trim());
  const searchId = useId();
  const orders = useChannelPages(
    'billing:orders',
    { siteId: site.id, state, query },
    { getKey: orderKey, keepPrevious: true },
  );
  // Which orders are open: kept here, not in the rows, since a virtualized row unmounts when
  // scrolled away.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (tradeNo: string) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (!next.delete(tradeNo)) next.add(tradeNo);
        return next;
      }),
    [],
  );
  const failed = summary.error ?? orders.query.error;
  const head = summary.data;
  return (
    <div className="screen">
      <ScreenHeader title={t('billing.title')}>
        {head && head.orderCount > 0 && <ExportOrdersButton siteId={site.id} />}
      </ScreenHeader>
      {failed ? (
        <ErrorState
          title={t('billing.loadFailed')}
          error={failed}
          onRetry={() => {
            void summary.refetch();
            void orders.query.refetch();
          }}
        />
      ) : !head || orders.query.isPending ? (
        <Loading shape="cards" />
      ) : head.orderCount === 0 ? (
        <EmptyState title={t('billing.empty.title')} icon={Receipt}>
          <p className="muted">{t('billing.empty.text')}</p>
        </EmptyState>
      ) : (
        <>
          <section aria-labelledby="totals-title" className="totals">
            <h2 id="totals-title" className="visually-hidden">
              {t('billing.totals')}
            </h2>
            {head.totals.map((tot) => (
              <div className="card total-card" key={tot.currency} data-testid="billing-total">
                <p className="muted small">{t('billing.totalIn', { currency: tot.currency })}</p>
                <p className="big-number">{formatMoney(tot.paid, tot.currency, i18n.language)}</p>
                {tot.refunded > 0 && (
                  <p className="small">
                    {t('billing.refunded', {
                      amount: formatMoney(tot.refunded, tot.currency, i18n.language),
                    })}
                  </p>
                )}
              </div>
            ))}
          </section>
          <SpendingByYear siteId={site.id} />
          {tradeNo && <FocusedOrder siteId={site.id} tradeNo={tradeNo} />}
          {head.pendingCount > 0 && (
            <PendingInstructions
              siteId={site.id}
              preview={head.pendingInstructions}
              count={head.pendingCount}
            />
          )}
          <h2 className="list-heading">{t('billing.orders', { count: head.orderCount })}</h2>
          <div className="library-tools billing-tools">
            <div
              className="segmented"
              role="group"
              aria-label={t('billing.filterLabel')}
              data-testid="order-filter"
            >
              {ORDER_FILTERS.map((f) => (
                <button
                  key={f}
                  type="button"
                  aria-pressed={state === f}
                  onClick={() => setState(f)}
                  data-filter={f}
                >
                  {t(`billing.filter.${f}`)}
                </button>
              ))}
            </div>
            <div className="field inline">
              <label htmlFor={searchId}>{t('billing.searchLabel')}</label>
              <input
                id={searchId}
                type="search"
                value={search}
                maxLength={200}
                placeholder={t('billing.searchPlaceholder')}
                onChange={(e) => setSearch(e.target.value)}
                data-testid="order-search"
              />
            </div>
          </div>
          {(state !== 'all' || query !== '') && (
            <p className="muted count-line" data-testid="order-count" aria-live="polite">
              {t('billing.orders', { count: orders.total })}
            </p>
          )}
          {orders.items.length === 0 ? (
            <EmptyState title={t('billing.noMatch')} icon={SearchX} />
          ) : (
            <PagedList
              pages={orders}
              estimateSize={120}
              gap={12}
              getKey={orderKey}
              label={t('billing.ordersLabel')}
              testId="order-list"
              render={(o, i) => (
                <>
                  {(i === 0 || yearOf(orders.items[i - 1]!) !== yearOf(o)) && (
                    <h3 className="year-heading" data-testid="year-heading">
                      {yearLabel(t, yearOf(o))}
                    </h3>
                  )}
                  {/* The order's heading is an h3 like the year's: the list is windowed, so the
                      rows above (and the year heading they start with) may not be in the page, and
                      an h4 straight after the h2 skips a level. */}
                  <OrderGroup
                    order={o}
                    expanded={open.has(o.tradeNo)}
                    onToggle={() => toggle(o.tradeNo)}
                  />
                </>
              )}
            />
          )}
        </>
      )}
    </div>
  );
}

/**
 * The order the student was taken to (Today's "See payment", a notice, the command palette,
 * search): first on the screen, open, marked, scrolled into view and its heading focused, so
 * keyboard and screen-reader users land on it. Its payable code stays in "waiting for you", below
 * it, and the order says so. "Show all orders" leaves it.
 */
function FocusedOrder({ siteId, tradeNo }: { readonly siteId: string; readonly tradeNo: string }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(true);
  const { navigate } = useApp();
  const order = useChannel('billing:order', { siteId, tradeNo });
  const ref = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = order.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    // After the shell has put focus on the screen's title (its effect runs after this one): a frame
    // later.
    const frame = requestAnimationFrame(() => {
      ref.current?.scrollIntoView({ block: 'start' });
      heading.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [loaded, tradeNo]);
  return (
    <section
      ref={ref}
      className="focused-order"
      aria-labelledby="focused-order-title"
      data-testid="focused-order"
    >
      <div className="row between">
        <h2 id="focused-order-title" className="list-heading">
          {t('billing.focusedOrder', { tradeNo })}
        </h2>
        <button
          type="button"
          className="button small ghost"
          onClick={() => navigate({ screen: 'billing' })}
        >
          {t('billing.showAllOrders')}
        </button>
      </div>
      {order.isPending ? (
        <Loading shape="cards" />
      ) : order.isError ? (
        <ErrorState title={t('billing.orderMissing')} error={order.error} compact />
      ) : (
        <InstructionsPlace.Provider value="below">
          <OrderGroup
            order={order.data}
            expanded={expanded}
            onToggle={() => setExpanded((e) => !e)}
            highlighted
            headingRef={heading}
          />
        </InstructionsPlace.Provider>
      )}
    </section>
  );
}

/**
 * Spent per year and currency (paid minus refunded), newest year first; for reimbursement and
 * budgets.
 */
function SpendingByYear({ siteId }: { readonly siteId: string }) {
  const { t, i18n } = useTranslation();
  const spending = useChannel('billing:spending', { siteId });
  const rows = spending.data ?? [];
  if (rows.length === 0) return null;
  const id = 'spending-title';
  // One receipts button per readable year with money paid (a year may have a row per currency).
  const receiptYears = [
    ...new Set(rows.filter((r) => /^\d{4}$/.test(r.year) && r.paid > 0).map((r) => r.year)),
  ];
  return (
    <section aria-labelledby={id} className="spending" data-testid="spending">
      <h2 id={id} className="list-heading">
        {t('billing.spendingTitle')}
      </h2>
      <table className="items spending-table">
        <thead>
          <tr>
            <th scope="col">{t('billing.spendingYear')}</th>
            <th scope="col">{t('billing.spendingCurrency')}</th>
            <th scope="col" className="num">
              {t('billing.spendingSpent')}
            </th>
            <th scope="col" className="num">
              {t('billing.spendingOrders')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.year}-${r.currency}`}
              data-testid="spending-row"
              data-year={r.year}
              data-currency={r.currency}
            >
              <th scope="row">{yearLabel(t, r.year)}</th>
              <td data-testid="spending-currency">{r.currency}</td>
              <td className="num">{formatMoney(r.spent, r.currency, i18n.language)}</td>
              <td className="num">{r.orderCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {receiptYears.length > 0 && (
        <div className="row year-receipts" data-testid="year-receipts-row">
          <span className="muted small">{t('billing.spendingReceipts')}</span>
          {receiptYears.map((year) => (
            <span key={year} data-year={year}>
              <YearReceiptsButton siteId={siteId} year={year} />
            </span>
          ))}
        </div>
      )}
    </section>
  );
}
