import {
  Bell,
  BookOpen,
  CalendarClock,
  CircleCheck,
  Hourglass,
  LockOpen,
  Receipt,
  Sun,
  ArrowUpRight,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { externalUrl } from '../../../../electron/common/external-url';
import type {
  TodayAttention,
  TodayCourse,
  TodaySite,
} from '../../../../electron/common/view-models';
import { useChannel } from '../../query';
import { useApp } from '../../state/context';
import { ErrorState } from '../../ui/ErrorState';
import { daysUntil, formatDate, formatDateTime, formatMoney, timeLeft } from '../../ui/format';
import { useNow } from '../../ui/useNow';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { nextStepIcon, nextStepLine } from '../course/index';
import { OpenOnSite } from '../site-pages/index';
import './today.css';
import { WeeklyProgress } from '../progress/index';
import { PlanSection } from '../plan/index';
import { SnoozeButtons } from '../reminders/index';
import { SinceLastLooked } from '../changes/index';
import { ArchiveButton } from '../archive/index';
import { useCaptureFirstScreen, useReleaseFirstScreen } from '../../state/first-screen';
import { StatusWords } from '../sync/index';
import { useSyncStatus } from '../../state/sync-status';

/**
 * How fresh the saved copy is, each school in the words and colour of the status bar (the same
 * status view), so Today's header never says "synced 12 minutes ago" of a school the bar calls
 * "synced now", nor green of one signed out. One school: its status alone; several: one line each,
 * by name.
 */
function Freshness({ sites }: { readonly sites: readonly TodaySite[] }) {
  const { t } = useTranslation();
  if (sites.length === 0) return null;
  if (sites.every((s) => s.lastSyncedAt === null))
    return <p className="muted today-freshness">{t('today.neverSynced')}</p>;
  const many = sites.length > 1;
  return (
    <ul
      className="plain muted today-freshness"
      data-testid="today-freshness"
      data-first-screen="blank"
      aria-label={t('today.freshnessLabel')}
    >
      {sites.map((s) => (
        <SchoolFreshness key={s.siteId} site={s} named={many} />
      ))}
    </ul>
  );
}

function SchoolFreshness({ site, named }: { readonly site: TodaySite; readonly named: boolean }) {
  const { view } = useSyncStatus(site.siteId);
  return (
    <li
      data-testid="today-school-status"
      data-site-id={site.siteId}
      data-state={view.state}
      data-tone={view.tone}
    >
      <span className={`dot ${view.tone}`} aria-hidden="true" />
      {named && <strong>{site.label}: </strong>}
      <StatusWords siteId={site.siteId} siteLabel={site.label} lastSyncedAt={site.lastSyncedAt} />
    </li>
  );
}

function ContinueCard({
  course,
  siteLabel,
}: {
  readonly course: TodayCourse;
  readonly siteLabel: string | null;
}) {
  const { t, i18n } = useTranslation();
  const { navigate, selectSite } = useApp();
  const step = course.nextStep;
  const Icon = nextStepIcon(step);
  const open = () => {
    selectSite(course.siteId);
    navigate({ screen: 'course', courseId: course.courseId });
  };
  return (
    <li
      className="today-card card"
      data-testid="today-continue"
      data-course-id={course.courseId}
      data-site-id={course.siteId}
    >
      <div className="today-card-body">
        <h3 className="today-card-title">
          <button type="button" className="link-button" onClick={open}>
            {course.title}
          </button>
        </h3>
        {siteLabel && <p className="muted small">{siteLabel}</p>}
        <p className={`today-step next-${step.kind}`}>
          <Icon aria-hidden="true" />
          <span>{nextStepLine(step, t, i18n.language)}</span>
        </p>
      </div>
      {(step.kind === 'resume' || step.kind === 'next' || step.kind === 'start') && (
        <OpenOnSite
          siteId={course.siteId}
          page={{ kind: 'lecture', courseId: course.courseId, lectureId: step.lecture.lectureId }}
          label={
            step.kind === 'resume'
              ? t('course.next.resume', { time: formatClock(step.positionSeconds) })
              : t('course.next.watch')
          }
          what={`${step.kind === 'resume' ? t('course.next.resume', { time: formatClock(step.positionSeconds) }) : t('course.next.watch')}: ${step.lecture.title}`}
          primary
          small
          testId="today-open-lecture"
        />
      )}
    </li>
  );
}

/** m:ss / h:mm:ss as the course page shows a position. */
function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h > 0
    ? `${h}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`
    : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}

function AttentionRow({
  item,
  siteLabel,
  now,
}: {
  readonly item: TodayAttention;
  readonly siteLabel: string | null;
  readonly now: number;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const { navigate, selectSite } = useApp();
  const go = (route: Parameters<typeof navigate>[0]) => () => {
    selectSite(item.siteId);
    navigate(route);
  };
  let Icon = Hourglass;
  let text: string;
  let action: ReactNode;
  switch (item.kind) {
    case 'access-ending': {
      // An unreadable date never reaches here (the core sorts by it), but the count then says 0
      // rather than throwing.
      const days = daysUntil(item.endsAt, now) ?? 0;
      text = t('today.accessEnding', {
        title: item.title,
        date: formatDate(item.endsAt, lng),
        count: days,
      });
      // Before access ends: keep an archive of the school (its courses, notes, purchases) on this
      // computer.
      action = (
        <>
          <button
            type="button"
            className="button small"
            onClick={go({ screen: 'course', courseId: item.courseId })}
          >
            {t('today.openCourse')}
          </button>
          <ArchiveButton siteId={item.siteId} siteLabel={siteLabel ?? item.title} />
        </>
      );
      break;
    }
    case 'payment-due': {
      Icon = Receipt;
      const left = item.expiresAt ? timeLeft(item.expiresAt, now) : null;
      text = t('today.paymentDue', {
        amount: formatMoney(item.amount, item.currency, lng),
        code: item.codeNo,
        title: item.title,
      });
      action = (
        <>
          {left && item.expiresAt && (
            <span
              className="today-countdown"
              data-testid="today-countdown"
              data-first-screen="blank"
            >
              {t('today.countdown', {
                days: left.days,
                hours: left.hours,
                minutes: left.minutes,
                date: formatDateTime(item.expiresAt, lng),
              })}
            </span>
          )}
          <button
            type="button"
            className="button small"
            onClick={go({ screen: 'billing', tradeNo: item.tradeNo })}
            data-testid="today-see-payment"
          >
            {t('today.seePayment')}
          </button>
        </>
      );
      break;
    }
    case 'event-soon': {
      Icon = CalendarClock;
      text = t('today.eventSoon', { title: item.title, date: formatDateTime(item.startsAt, lng) });
      const join = item.joinUrl ? externalUrl(item.joinUrl) : null;
      action = join ? (
        <a className="button small" href={join} target="_blank" rel="noopener noreferrer">
          {t('today.join')}
          <ArrowUpRight aria-hidden="true" className="open-on-site-arrow" />
        </a>
      ) : (
        <button type="button" className="button small" onClick={go({ screen: 'entitlements' })}>
          {t('today.seeEvent')}
        </button>
      );
      break;
    }
    case 'lecture-unlocked':
      Icon = LockOpen;
      text = t('today.lectureUnlocked', { lecture: item.lectureTitle, course: item.courseTitle });
      action = (
        <button
          type="button"
          className="button small"
          onClick={go({ screen: 'course', courseId: item.courseId })}
        >
          {t('today.openCourse')}
        </button>
      );
      break;
  }
  return (
    <li className="today-row" data-testid="today-attention" data-kind={item.kind}>
      <Icon className="today-row-icon" aria-hidden="true" />
      <div className="today-row-text">
        <p>{text}</p>
        {siteLabel && <p className="muted small">{siteLabel}</p>}
      </div>
      <div className="today-row-action">
        {action}
        <SnoozeButtons {...snoozeOf(item)} />
      </div>
    </li>
  );
}

/** The reminder an attention row stands for, to snooze it (reminders/SnoozeButtons.tsx). */
function snoozeOf(item: TodayAttention) {
  switch (item.kind) {
    case 'access-ending':
      return { kind: 'access-ending', siteId: item.siteId, subjectId: item.courseId } as const;
    case 'payment-due':
      return { kind: 'payment-due', siteId: item.siteId, subjectId: item.paymentId } as const;
    case 'event-soon':
      return {
        kind: 'event-starting',
        siteId: item.siteId,
        subjectId: item.registrationId,
      } as const;
    case 'lecture-unlocked':
      return { kind: 'lecture-unlocked', siteId: item.siteId, subjectId: item.lectureId } as const;
  }
}

/** The first screen once signed in: what to do next, across every school kept on this computer. */
export function TodayScreen() {
  const { t } = useTranslation();
  const { navigate, selectSite } = useApp();
  const q = useChannel('today:get', undefined);
  const now = useNow(60_000);
  // The window opens here: the last session's frame (state/first-screen.ts) gives way to this
  // screen once it has its data (or its error), and the data shown is kept as the next start's
  // frame.
  useReleaseFirstScreen(!q.isPending);
  useCaptureFirstScreen(q.data ? q.data.sites.map((s) => s.siteId) : null, q.dataUpdatedAt);
  if (q.isPending)
    return (
      <div className="screen">
        <ScreenHeader title={t('today.title')} icon={Sun} />
        <Loading shape="cards" />
      </div>
    );
  if (q.isError)
    return (
      <div className="screen">
        <ScreenHeader title={t('today.title')} icon={Sun} />
        <ErrorState
          title={t('today.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      </div>
    );
  const today = q.data;
  const many = today.sites.length > 1;
  const label = (siteId: string) =>
    many ? (today.sites.find((s) => s.siteId === siteId)?.label ?? null) : null;
  const unread = today.sites.filter((s) => s.unreadCount > 0);
  return (
    <div className="screen today-screen">
      <ScreenHeader title={t('today.title')} icon={Sun}>
        <button
          type="button"
          className="button small"
          onClick={() => navigate({ screen: 'library' })}
          data-testid="today-library"
        >
          <BookOpen aria-hidden="true" />
          {t('today.allCourses')}
        </button>
      </ScreenHeader>
      <Freshness sites={today.sites} />
      <SinceLastLooked />

      <section aria-labelledby="today-continue-title" className="today-section">
        <h2 id="today-continue-title">{t('today.continueTitle')}</h2>
        {today.continueLearning.length === 0 ? (
          <EmptyState title={t('today.nothingToContinue')} icon={CircleCheck} />
        ) : (
          <ul className="plain today-cards">
            {today.continueLearning.map((c) => (
              <ContinueCard
                key={`${c.siteId}/${c.courseId}`}
                course={c}
                siteLabel={label(c.siteId)}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="today-attention-title" className="today-section">
        <h2 id="today-attention-title">{t('today.attentionTitle')}</h2>
        {today.attention.length === 0 ? (
          <p className="muted">{t('today.nothingNeedsAttention')}</p>
        ) : (
          <ul className="plain today-rows">
            {today.attention.map((a) => (
              <AttentionRow
                key={`${a.kind}/${a.siteId}/${'paymentId' in a ? a.paymentId : 'registrationId' in a ? a.registrationId : 'lectureId' in a ? a.lectureId : a.courseId}`}
                item={a}
                siteLabel={label(a.siteId)}
                now={now}
              />
            ))}
          </ul>
        )}
      </section>

      <PlanSection />

      <WeeklyProgress sites={today.sites} />

      {unread.length > 0 && (
        <section aria-labelledby="today-unread-title" className="today-section">
          <h2 id="today-unread-title">{t('today.unreadTitle')}</h2>
          <ul className="plain today-rows">
            {unread.map((s) => (
              <li
                key={s.siteId}
                className="today-row"
                data-testid="today-unread"
                data-site-id={s.siteId}
              >
                <Bell className="today-row-icon" aria-hidden="true" />
                <div className="today-row-text">
                  <p>{t('today.unread', { count: s.unreadCount, school: s.label })}</p>
                </div>
                <div className="today-row-action">
                  <button
                    type="button"
                    className="button small"
                    onClick={() => {
                      selectSite(s.siteId);
                      navigate({ screen: 'notifications' });
                    }}
                  >
                    {t('today.readNotices')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
