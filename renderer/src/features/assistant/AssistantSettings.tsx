import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ASSISTANT_CATEGORIES,
  type AssistantSchoolView,
  type AssistantView,
} from '../../../../electron/common/assistant';
import { ErrorState } from '../../ui/ErrorState';
import { Loading } from '../../ui/states';
import { ActivityView } from './ActivityView';
import { ConnectPanel } from './ConnectPanel';
import { useAssistant } from './useAssistant';
import './assistant.css';

/**
 * Settings > AI assistant: the student's own assistant reads the offline copy through the app's
 * local MCP server, only what is allowed here. Off by default; on needs the acknowledgement that an
 * assistant may send what it reads to its own cloud; per school and per category, the sensitive
 * ones off.
 */
export function AssistantSettings() {
  const { t } = useTranslation();
  const { q, update } = useAssistant();
  if (q.isPending) return <Loading />;
  if (q.isError)
    return (
      <ErrorState
        title={t('assistant.loadFailed')}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );
  const view = q.data;
  return (
    <>
      <Consent view={view} update={update.mutate} busy={update.isPending} />
      {update.error && <ErrorState error={update.error} compact />}
      {view.enabled && !view.surfaceChanged && (
        <section className="card" aria-labelledby="assistant-schools-title">
          <h3 id="assistant-schools-title">{t('assistant.schools.title')}</h3>
          <p className="muted">{t('assistant.schools.explain')}</p>
          {view.schools.length === 0 && <p>{t('assistant.schools.none')}</p>}
          {view.schools.map((s) => (
            <SchoolConsent key={s.siteId} school={s} update={update.mutate} />
          ))}
          <Check
            checked={view.fullPaymentCodes}
            onChange={(v) => update.mutate({ fullPaymentCodes: v })}
            label={t('assistant.fullCodes')}
            testId="assistant-full-codes"
          />
          <Check
            checked={view.allowMarkRead}
            onChange={(v) => update.mutate({ allowMarkRead: v })}
            label={t('assistant.allowMarkRead')}
            testId="assistant-allow-mark-read"
          />
        </section>
      )}
      <ConnectPanel view={view} />
      <ActivityView />
    </>
  );
}

type Update = ReturnType<typeof useAssistant>['update']['mutate'];

function Consent({ view, update, busy }: { view: AssistantView; update: Update; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="assistant-title" data-testid="assistant-consent">
      <h3 id="assistant-title">{t('assistant.title')}</h3>
      <p>{t('assistant.explain')}</p>
      <ul className="assistant-promises">
        <li>{t('assistant.promise.readOnly')}</li>
        <li>{t('assistant.promise.offline')}</li>
        <li>{t('assistant.promise.log')}</li>
      </ul>
      <Check
        checked={view.cloudAcknowledged}
        onChange={(v) => update({ cloudAcknowledged: v })}
        label={t('assistant.cloud')}
        testId="assistant-cloud"
        disabled={busy}
      />
      <Check
        checked={view.enabled && !view.surfaceChanged}
        onChange={(v) => update({ enabled: v })}
        label={t('assistant.enable')}
        testId="assistant-enabled"
        disabled={busy || !view.cloudAcknowledged}
        hint={view.cloudAcknowledged ? undefined : t('assistant.enableNeedsCloud')}
      />
      {view.enabled && view.surfaceChanged && (
        <div className="assistant-ask-again" role="status" data-testid="assistant-surface-changed">
          <p>{t('assistant.surfaceChanged')}</p>
          <button type="button" className="button" onClick={() => update({ enabled: true })}>
            {t('assistant.turnOnAgain')}
          </button>
        </div>
      )}
      <p className="muted small">{t('assistant.offRemoves')}</p>
    </section>
  );
}

function SchoolConsent({ school, update }: { school: AssistantSchoolView; update: Update }) {
  const { t } = useTranslation();
  return (
    <fieldset className="assistant-school" data-testid="assistant-school">
      <legend>{school.label}</legend>
      <Check
        checked={school.enabled}
        onChange={(v) => update({ school: { siteId: school.siteId, enabled: v } })}
        label={t('assistant.schools.allow', { school: school.label })}
        testId="assistant-school-enabled"
      />
      <div className="assistant-categories">
        {ASSISTANT_CATEGORIES.map((c) => (
          <Check
            key={c}
            checked={school.categories[c]}
            disabled={!school.enabled}
            onChange={(v) => update({ school: { siteId: school.siteId, categories: { [c]: v } } })}
            label={t(`assistant.category.${c}`)}
            hint={c === 'purchases' || c === 'profile' ? t('assistant.sensitive') : undefined}
            testId={`assistant-category-${c}`}
          />
        ))}
      </div>
    </fieldset>
  );
}

function Check(props: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  testId: string;
  disabled?: boolean;
  hint?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
        data-testid={props.testId}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <span id={`${id}-hint`} className="muted small assistant-hint">
          {props.hint}
        </span>
      )}
    </div>
  );
}
