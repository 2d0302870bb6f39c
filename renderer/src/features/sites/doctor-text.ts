import type { TFunction } from 'i18next';
import type { DoctorCheck, DoctorReport, DoctorStatus } from '../../../../electron/common/doctor';
import { assertNever } from '../../../../electron/common/result';

export function doctorStatusKey(status: DoctorStatus): string {
  switch (status) {
    case 'ok':
    case 'warning':
    case 'problem':
    case 'skipped':
      return `doctor.status.${status}`;
    default:
      return assertNever(status, 'doctor status');
  }
}

/** One check in words: its name, what was found, what to do. */
export function describeCheck(
  check: DoctorCheck,
  t: TFunction,
): { name: string; what: string; todo: string } {
  return {
    name: t(`doctor.check.${check.id}`),
    what: t(`doctor.finding.${check.finding}.what`, check.params),
    todo: t(`doctor.finding.${check.finding}.todo`, check.params),
  };
}

/**
 * The report as plain text for a support request, in the student's language. Built only from the
 * report's fields, which never hold a secret (electron/common/doctor.ts;
 * test/security/doctor-report.test.ts).
 */
export function reportText(
  report: DoctorReport,
  t: TFunction,
  formatDate: (iso: string) => string,
): string {
  const lines = [
    t('doctor.report.heading'),
    t('doctor.report.app', {
      version: report.app.version,
      host: report.app.host,
      platform: report.app.platform,
    }),
    t('doctor.report.site', { label: report.site.label, baseUrl: report.site.baseUrl }),
    t('doctor.report.clientId', { clientId: report.site.clientId }),
    t('doctor.report.ranAt', { date: formatDate(report.ranAt) }),
    ...(report.trigger ? [t('doctor.report.trigger', { code: report.trigger })] : []),
    '',
  ];
  for (const check of report.checks) {
    const d = describeCheck(check, t);
    lines.push(`[${t(doctorStatusKey(check.status))}] ${d.name}: ${d.what}`);
    if (check.status === 'warning' || check.status === 'problem')
      lines.push(`    ${t('doctor.report.todo', { text: d.todo })}`);
  }
  return lines.join('\n');
}
