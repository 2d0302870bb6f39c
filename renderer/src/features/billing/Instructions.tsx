import { Ban } from 'lucide-react';
import { createContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentView } from '../../../../electron/common/view-models';
import { useSite } from '../../state/context';
import { CopyButton } from '../../ui/CopyButton';
import { PaymentDeadlineCalendarButton } from '../export/index';
import { formatDateTime, formatMoney, timeLeft } from '../../ui/format';
import { useNow } from '../../ui/useNow';

/** The element id of a payable code in the "waiting for you" section (its order links to it). */
export const pendingInstructionsId = (paymentId: string) =>
  `pending-code-${paymentId.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * Where "waiting for you" (each payable code in full) sits from an order being read: above the
 * order list, below the order the student was taken to. The order's pointer to its code says which,
 * truthfully.
 */
export const InstructionsPlace = createContext<'above' | 'below'>('above');

/**
 * Whether `payment`'s code can still be paid at `now` (the deadline can pass while the screen is
 * open).
 */
export function isPayable(payment: PaymentView, now: number): boolean {
  const ins = payment.instructions;
  if (!ins || payment.paymentState !== 'not_paid' || ins.isExpired) return false;
  return ins.expiredAt === null || !(Date.parse(ins.expiredAt) <= now);
}

/** How to pay an unpaid ATM / convenience-store row: bank, code to copy, deadline and time left. */
export function Instructions({
  payment,
  showAmount,
  anchor,
}: {
  readonly payment: PaymentView;
  readonly showAmount?: boolean;
  /** In the "waiting for you" section: the id its order's pointer scrolls to. */
  readonly anchor?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const site = useSite();
  const ins = payment.instructions;
  if (!ins) return null;
  // The deadline can pass while the screen is open: judge it against the ticking clock, not only
  // the stored flag.
  const expired =
    ins.isExpired ||
    payment.paymentState === 'expired' ||
    (ins.expiredAt !== null && Date.parse(ins.expiredAt) <= now);
  const left = ins.expiredAt ? timeLeft(ins.expiredAt, now) : null;
  const leftText = left
    ? left.days > 0
      ? t('billing.instructions.leftDaysHours', {
          days: t('time.days', { count: left.days }),
          hours: t('time.hours', { count: left.hours }),
        })
      : left.hours > 0
        ? t('billing.instructions.leftHoursMinutes', {
            hours: t('time.hours', { count: left.hours }),
            minutes: t('time.minutes', { count: left.minutes }),
          })
        : t('billing.instructions.leftMinutes', {
            minutes: t('time.minutes', { count: left.minutes }),
          })
    : null;
  const isAtm = payment.paymentType === 'atm';
  return (
    <div
      className={expired ? 'instructions expired' : 'instructions'}
      id={anchor ? pendingInstructionsId(payment.paymentId) : undefined}
      tabIndex={anchor ? -1 : undefined}
      data-testid="payment-instructions"
      data-expired={expired ? 'true' : 'false'}
    >
      <p className="instructions-title">
        {expired ? (
          <strong className="state-badge bad">
            <Ban aria-hidden="true" />
            {t('billing.instructions.expired')}
          </strong>
        ) : (
          <strong>
            {isAtm ? t('billing.instructions.atmTitle') : t('billing.instructions.cvsTitle')}
          </strong>
        )}
        {showAmount && (
          <span className="amount">
            {' '}
            {formatMoney(payment.amount, payment.currency, i18n.language)}
            {payment.lineItems[0] && <> · {payment.lineItems.map((li) => li.title).join(', ')}</>}
          </span>
        )}
      </p>
      <dl className="kv">
        {(ins.bankName || ins.bankCode) && (
          <>
            <dt>{t('billing.instructions.bank')}</dt>
            <dd>
              {ins.bankName}
              {/* The brackets are the language's own: full-width in Chinese. */}
              {ins.bankCode && t('billing.instructions.bankCode', { code: ins.bankCode })}
            </dd>
          </>
        )}
        <dt>{isAtm ? t('billing.instructions.account') : t('billing.instructions.paymentCode')}</dt>
        <dd className="code-row">
          <code
            className={expired ? 'payment-code struck' : 'payment-code'}
            data-testid="payment-code"
          >
            {ins.codeNo}
          </code>
          {!expired && (
            <CopyButton
              text={ins.codeNo}
              label={t('billing.instructions.copyLabel', { code: ins.codeNo })}
              testId="copy-code"
            />
          )}
        </dd>
        {ins.expiredAt && (
          <>
            <dt>
              {expired ? t('billing.instructions.expiredAt') : t('billing.instructions.payBy')}
            </dt>
            <dd>
              {formatDateTime(ins.expiredAt, i18n.language)}
              {!expired && leftText && (
                <strong className="time-left" data-testid="time-left">
                  {' '}
                  · {leftText}
                </strong>
              )}
              {!expired && payment.paymentState === 'not_paid' && (
                <PaymentDeadlineCalendarButton
                  siteId={site.id}
                  paymentId={payment.paymentId}
                  code={ins.codeNo}
                />
              )}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
