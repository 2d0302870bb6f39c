import { AlertTriangle, CheckCircle2, CircleSlash, Stethoscope, XCircle } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DoctorStatus } from '../../../../electron/common/doctor';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { assertNever } from '../../../../electron/common/result';
import { useChannelMutation } from '../../query';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTime } from '../../ui/format';
import { describeCheck, doctorStatusKey, reportText } from './doctor-text';
import './doctor.css';

function StatusIcon({ status }: { readonly status: DoctorStatus }) {
  const props = { size: 18, 'aria-hidden': true, className: `doctor-icon ${status}` } as const;
  switch (status) {
    case 'ok':
      return <CheckCircle2 {...props} />;
    case 'warning':
      return <AlertTriangle {...props} />;
    case 'problem':
      return <XCircle {...props} />;
    case 'skipped':
      return <CircleSlash {...props} />;
    default:
      return assertNever(status, 'doctor status');
  }
}

/**
 * "What went wrong?" under a failed sign-in (or a site that could not be added): runs the sign-in
 * doctor in the core and lists each check with its status and what to do, plus the report as text
 * to copy for support.
 */
export function SignInDoctor({
  target,
  siteLabel,
  buttonLabel,
}: {
  readonly target: ChannelInput<'doctor:run'>;
  readonly siteLabel: string;
  /**
   * The button's words where nothing has gone wrong yet (Settings' "Run a check"); else "What went
   * wrong?".
   */
  readonly buttonLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const run = useChannelMutation('doctor:run');
  const titleId = useId();
  const report = run.data;
  const attention =
    report?.checks.filter((c) => c.status === 'problem' || c.status === 'warning').length ?? 0;
  // Shown and copied: built once per render.
  const text = report ? reportText(report, t, (iso) => formatDateTime(iso, i18n.language)) : '';

  if (run.isIdle) {
    return (
      <button
        type="button"
        className="button doctor-run"
        onClick={() => run.mutate(target)}
        data-testid="doctor-run"
      >
        <Stethoscope size={16} aria-hidden={true} /> {buttonLabel ?? t('doctor.button')}
      </button>
    );
  }
  return (
    <section
      className="doctor"
      aria-labelledby={titleId}
      data-testid="doctor"
      aria-busy={run.isPending}
    >
      {/* On demand (Settings) it sits under its card's own heading: one level down, and named as a check. */}
      {buttonLabel ? (
        <h4 id={titleId}>{t('doctor.checkTitle')}</h4>
      ) : (
        <h3 id={titleId}>{t('doctor.title')}</h3>
      )}
      <p className="muted small">{t('doctor.intro', { site: siteLabel })}</p>
      {run.isPending && (
        <p role="status" className="phase" data-testid="doctor-running">
          <span className="spinner" aria-hidden="true" /> {t('doctor.running')}
        </p>
      )}
      {run.isError && (
        <ErrorState
          title={t('doctor.failed')}
          error={run.error}
          onRetry={() => run.mutate(target)}
          compact
        />
      )}
      {report && !run.isPending && (
        <>
          <p role="status" className="doctor-summary" data-testid="doctor-summary">
            {attention > 0 ? t('doctor.summary', { count: attention }) : t('doctor.summaryNone')}
          </p>
          <ul className="plain doctor-list">
            {report.checks.map((check) => {
              const d = describeCheck(check, t);
              return (
                <li
                  key={check.id}
                  className={`doctor-check ${check.status}`}
                  data-testid="doctor-check"
                  data-check={check.id}
                  data-status={check.status}
                  data-finding={check.finding}
                >
                  <StatusIcon status={check.status} />
                  <div>
                    <p className="doctor-check-title">
                      <strong>{d.name}</strong>{' '}
                      <span
                        className={`state-badge ${check.status === 'ok' ? 'ok' : check.status === 'warning' ? 'warn' : check.status === 'problem' ? 'bad' : 'neutral'}`}
                      >
                        {t(doctorStatusKey(check.status))}
                      </span>
                    </p>
                    <p>{d.what}</p>
                    {(check.status === 'problem' || check.status === 'warning') && (
                      <p className="doctor-todo">{d.todo}</p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
          <details className="doctor-report">
            <summary>{t('doctor.reportTitle')}</summary>
            <p className="muted small">{t('doctor.reportNote')}</p>
            <pre tabIndex={0} data-testid="doctor-report-text">
              {text}
            </pre>
          </details>
          <div className="row">
            <CopyButton text={text} label={t('doctor.copy')} testId="doctor-copy" />
            <button
              type="button"
              className="button small"
              onClick={() => run.mutate(target)}
              data-testid="doctor-again"
            >
              {t('doctor.runAgain')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
