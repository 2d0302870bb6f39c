import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LEAD_MAX_MINUTES,
  LEAD_PRESETS_MINUTES,
  REMINDER_RULE_KINDS,
  type ReminderPrefsView,
  type ReminderRule,
  type ReminderRuleKind,
} from '../../../../electron/common/plan-contract';
import { call } from '../../api';
import { channelKey, useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import './reminders.css';

/**
 * Kinds with one moment (no lead time to choose), and the one the school's data cannot serve: a
 * consulting service's meetings are everyone's, none marked the student's (service spec,
 * "Consulting service"), and it has no booking window; the core never reminds of it.
 */
const FIXED: ReadonlySet<ReminderRuleKind> = new Set(['lecture-unlocked', 'plan-behind']);
const UNAVAILABLE: ReadonlySet<ReminderRuleKind> = new Set(['consulting']);

/** 90 -> "1 h 30 min" style, in the page's language, from the i18n units. */
function useLeadLabel() {
  const { t } = useTranslation();
  return (m: number) =>
    m % 1440 === 0
      ? t('reminderRules.days', { count: m / 1440 })
      : m % 60 === 0
        ? t('reminderRules.hours', { count: m / 60 })
        : t('reminderRules.minutes', { count: m });
}

function useSave() {
  const client = useQueryClient();
  const [error, setError] = useState<Error | null>(null);
  const run = async (p: Promise<ReminderPrefsView>) => {
    try {
      client.setQueryData(channelKey('reminders:prefs'), await p);
      setError(null);
    } catch (e) {
      setError(e as Error);
    }
  };
  return { run, error };
}

function Leads({
  rule,
  onChange,
  testId,
}: {
  readonly rule: ReminderRule;
  readonly onChange: (leads: number[]) => void;
  readonly testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const label = useLeadLabel();
  const [custom, setCustom] = useState('');
  const [unit, setUnit] = useState(60);
  const has = (m: number) => rule.leadMinutes.includes(m);
  const toggle = (m: number) =>
    onChange(has(m) ? rule.leadMinutes.filter((x) => x !== m) : [...rule.leadMinutes, m]);
  const extra = rule.leadMinutes.filter(
    (m) => !(LEAD_PRESETS_MINUTES as readonly number[]).includes(m),
  );
  const customMinutes = Math.round(Number(custom) * unit);
  return (
    <div className="reminder-leads" data-testid={testId}>
      {[...LEAD_PRESETS_MINUTES, ...extra].map((m) => (
        <span className="plan-day" key={m}>
          <input
            id={`${id}-${m}`}
            type="checkbox"
            checked={has(m)}
            disabled={!rule.enabled}
            onChange={() => toggle(m)}
            data-testid={`lead-${m}`}
          />
          <label htmlFor={`${id}-${m}`}>{t('reminderRules.before', { time: label(m) })}</label>
        </span>
      ))}
      <span className="reminder-custom">
        <input
          type="number"
          min={1}
          aria-label={t('reminderRules.custom')}
          value={custom}
          disabled={!rule.enabled}
          onChange={(e) => setCustom(e.target.value)}
          data-testid="lead-custom"
        />
        <select
          aria-label={t('reminderRules.customUnit')}
          value={unit}
          onChange={(e) => setUnit(Number(e.target.value))}
          disabled={!rule.enabled}
        >
          <option value={1}>{t('reminderRules.unitMinutes')}</option>
          <option value={60}>{t('reminderRules.unitHours')}</option>
          <option value={1440}>{t('reminderRules.unitDays')}</option>
        </select>
        <button
          type="button"
          className="button small"
          disabled={
            !rule.enabled ||
            !(customMinutes >= 1 && customMinutes <= LEAD_MAX_MINUTES) ||
            has(customMinutes)
          }
          onClick={() => {
            onChange([...rule.leadMinutes, customMinutes]);
            setCustom('');
          }}
          data-testid="lead-custom-add"
        >
          {t('reminderRules.add')}
        </button>
      </span>
    </div>
  );
}

function KindRow({
  kind,
  rule,
  siteId,
  save,
}: {
  readonly kind: ReminderRuleKind;
  readonly rule: ReminderRule;
  readonly siteId?: string;
  readonly save: (p: Promise<ReminderPrefsView>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const set = (next: ReminderRule) =>
    save(
      call('reminders:set-rule', {
        ...(siteId ? { siteId } : {}),
        kind,
        rule: { enabled: next.enabled, leadMinutes: [...next.leadMinutes] },
      }),
    );
  if (UNAVAILABLE.has(kind))
    return (
      <div className="reminder-kind" data-testid={`rule-${kind}-unavailable`}>
        <p>
          <strong>{t(`reminderRules.kind.${kind}`)}</strong>
        </p>
        <p className="muted small">{t('reminderRules.consultingUnavailable')}</p>
      </div>
    );
  return (
    <div className="reminder-kind" data-testid={`rule-${kind}`}>
      <div className="field checkbox">
        <input
          id={id}
          type="checkbox"
          checked={rule.enabled}
          onChange={(e) => set({ ...rule, enabled: e.target.checked })}
          data-testid={`rule-${kind}-on`}
        />
        <label htmlFor={id}>{t(`reminderRules.kind.${kind}`)}</label>
      </div>
      {!FIXED.has(kind) && (
        <Leads
          rule={rule}
          testId={`rule-${kind}-leads`}
          onChange={(leads) => set({ ...rule, leadMinutes: leads })}
        />
      )}
    </div>
  );
}

function QuietHoursRow({
  view,
  save,
}: {
  readonly view: ReminderPrefsView;
  readonly save: (p: Promise<ReminderPrefsView>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const q = view.quietHours;
  const set = (quietHours: ReminderPrefsView['quietHours']) =>
    save(call('reminders:set-quiet-hours', { quietHours }));
  return (
    <fieldset className="plan-days" data-testid="quiet-hours">
      <legend>{t('reminderRules.quiet')}</legend>
      <span className="plan-day">
        <input
          id={`${id}-on`}
          type="checkbox"
          checked={q !== null}
          onChange={(e) => set(e.target.checked ? { start: '22:00', end: '08:00' } : null)}
          data-testid="quiet-on"
        />
        <label htmlFor={`${id}-on`}>{t('reminderRules.quietOn')}</label>
      </span>
      {q && (
        <>
          <label htmlFor={`${id}-start`}>{t('reminderRules.quietFrom')}</label>
          <input
            id={`${id}-start`}
            type="time"
            value={q.start}
            onChange={(e) => e.target.value && set({ ...q, start: e.target.value })}
          />
          <label htmlFor={`${id}-end`}>{t('reminderRules.quietTo')}</label>
          <input
            id={`${id}-end`}
            type="time"
            value={q.end}
            onChange={(e) => e.target.value && set({ ...q, end: e.target.value })}
          />
        </>
      )}
      <p className="muted small">{t('reminderRules.quietHint')}</p>
    </fieldset>
  );
}

/**
 * Settings > Reminders: each kind on or off with its lead times, for every school or one; quiet
 * hours.
 */
export function ReminderRules() {
  const { t } = useTranslation();
  const id = useId();
  const q = useChannel('reminders:prefs', undefined);
  const { run: save, error } = useSave();
  const [siteId, setSiteId] = useState<string>('');
  if (q.isError) return <ErrorState error={q.error} compact onRetry={() => void q.refetch()} />;
  const view = q.data;
  if (!view) return null;
  const site = view.sites.find((s) => s.siteId === siteId);
  const rules = site ? site.rules : view.defaults;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="reminder-rules">
      <h3 id={`${id}-title`}>{t('reminderRules.title')}</h3>
      <p className="muted">{t('reminderRules.explain')}</p>
      {view.sites.length > 0 && (
        <div className="field">
          <label htmlFor={`${id}-site`}>{t('reminderRules.for')}</label>
          <select
            id={`${id}-site`}
            value={siteId}
            onChange={(e) => setSiteId(e.target.value)}
            data-testid="rule-site"
          >
            <option value="">{t('reminderRules.everySchool')}</option>
            {view.sites.map((s) => (
              <option key={s.siteId} value={s.siteId}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {REMINDER_RULE_KINDS.map((k) => (
        <KindRow
          key={`${siteId}/${k}`}
          kind={k}
          rule={rules[k]}
          {...(site ? { siteId: site.siteId } : {})}
          save={save}
        />
      ))}
      <QuietHoursRow view={view} save={save} />
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
