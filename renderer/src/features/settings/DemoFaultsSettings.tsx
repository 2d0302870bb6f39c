import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical, KeyRound } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DemoFaults, DemoFaultsView } from '../../../../electron/common/demo-faults';
import {
  DEMO_CLOCK_SKEW_CHOICES_MIN,
  DEMO_DOWNLOAD_FAULTS,
  DEMO_LATENCY_CHOICES_MS,
} from '../../../../electron/common/demo-faults';
import type { ChannelInput } from '../../../../electron/common/ipc-contract';
import { channelKey, useChannel, useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import './demo-faults.css';

type Toggle = 'offline' | 'memberApiUnavailable' | 'refreshRefused';
const TOGGLES: readonly { key: Toggle; label: string; hint: string }[] = [
  { key: 'offline', label: 'demoFaults.offline', hint: 'demoFaults.offlineHint' },
  { key: 'memberApiUnavailable', label: 'demoFaults.memberApi', hint: 'demoFaults.memberApiHint' },
  {
    key: 'refreshRefused',
    label: 'demoFaults.refreshRefused',
    hint: 'demoFaults.refreshRefusedHint',
  },
];

function skewLabel(minutes: number, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (minutes === 0) return t('demoFaults.clockCorrect');
  return minutes < 0
    ? t('demoFaults.clockBehind', { minutes: -minutes })
    : t('demoFaults.clockAhead', { minutes });
}

/**
 * Settings > Demo: switches the embedded demo sites' faults live (offline, slow network, member API
 * 503, refresh refused, clock skew, signing-key rotation). Shown only in demo mode, i.e. while the
 * demo sites run in this app.
 */
export function DemoFaultsSettings() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useChannel('demo:faults', undefined, { staleTime: 0 });
  const set = useChannelMutation('demo:set-faults');
  const rotate = useChannelMutation('demo:rotate-signing-key');
  const [applied, setApplied] = useState(false);
  const ids = { latency: useId(), skew: useId(), hint: useId(), download: useId() };
  const toggleIds = { offline: useId(), memberApiUnavailable: useId(), refreshRefused: useId() };

  // Not in demo mode (forbidden) or the demo sites are not running: there is nothing to switch.
  if (!q.data?.running) return null;
  const faults: DemoFaults = q.data.faults;
  const onSaved = (view: DemoFaultsView) => {
    client.setQueryData(channelKey('demo:faults'), view);
    setApplied(true);
  };
  const change = (patch: ChannelInput<'demo:set-faults'>) => {
    setApplied(false);
    // Shown switched at once (a controlled input would otherwise snap back until the core answers);
    // the core's answer, or a refetch after a refusal, puts the truth back.
    const view = q.data;
    if (view)
      client.setQueryData(channelKey('demo:faults'), {
        ...view,
        faults: { ...view.faults, ...patch },
      });
    set.mutate(patch, { onSuccess: onSaved, onError: () => void q.refetch() });
  };

  return (
    <section
      className="card demo-faults"
      aria-labelledby="demo-faults-title"
      data-testid="demo-faults"
    >
      <h3 id="demo-faults-title">
        <FlaskConical size={18} aria-hidden={true} /> {t('demoFaults.title')}
      </h3>
      <p className="muted" id={ids.hint}>
        {t('demoFaults.intro')}
      </p>
      {TOGGLES.map(({ key, label, hint }) => (
        <div className="fault-toggle" key={key}>
          <input
            id={toggleIds[key]}
            type="checkbox"
            role="switch"
            checked={faults[key]}
            disabled={set.isPending}
            aria-describedby={`${toggleIds[key]}-hint`}
            onChange={(e) => change({ [key]: e.target.checked })}
            data-testid={`demo-fault-${key}`}
          />
          <label htmlFor={toggleIds[key]}>{t(label)}</label>
          <p className="hint" id={`${toggleIds[key]}-hint`}>
            {t(hint)}
          </p>
        </div>
      ))}
      <div className="field inline">
        <label htmlFor={ids.latency}>{t('demoFaults.latency')}</label>
        <select
          id={ids.latency}
          value={faults.latencyMs}
          disabled={set.isPending}
          onChange={(e) =>
            change({
              latencyMs: Number(e.target.value) as (typeof DEMO_LATENCY_CHOICES_MS)[number],
            })
          }
          data-testid="demo-fault-latency"
        >
          {DEMO_LATENCY_CHOICES_MS.map((ms) => (
            <option key={ms} value={ms}>
              {ms === 0
                ? t('demoFaults.latencyOff')
                : t('demoFaults.latencyValue', { seconds: ms / 1000 })}
            </option>
          ))}
        </select>
      </div>
      <div className="field inline">
        <label htmlFor={ids.skew}>{t('demoFaults.clockSkew')}</label>
        <select
          id={ids.skew}
          value={faults.clockSkewMinutes}
          disabled={set.isPending}
          onChange={(e) =>
            change({
              clockSkewMinutes: Number(
                e.target.value,
              ) as (typeof DEMO_CLOCK_SKEW_CHOICES_MIN)[number],
            })
          }
          aria-describedby={`${ids.skew}-hint`}
          data-testid="demo-fault-clock"
        >
          {DEMO_CLOCK_SKEW_CHOICES_MIN.map((m) => (
            <option key={m} value={m}>
              {skewLabel(m, t)}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" id={`${ids.skew}-hint`}>
        {t('demoFaults.clockSkewHint')}
      </p>
      <div className="field inline">
        <label htmlFor={ids.download}>{t('demoFaults.download')}</label>
        <select
          id={ids.download}
          value={faults.download}
          disabled={set.isPending}
          onChange={(e) =>
            change({ download: e.target.value as (typeof DEMO_DOWNLOAD_FAULTS)[number] })
          }
          aria-describedby={`${ids.download}-hint`}
          data-testid="demo-fault-download"
        >
          {DEMO_DOWNLOAD_FAULTS.map((f) => (
            <option key={f} value={f}>
              {t(`demoFaults.downloadChoice.${f}`)}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" id={`${ids.download}-hint`}>
        {t('demoFaults.downloadHint')}
      </p>
      <div className="row fault-rotate">
        <button
          type="button"
          className="button"
          onClick={() => {
            setApplied(false);
            rotate.mutate(undefined, { onSuccess: onSaved });
          }}
          disabled={rotate.isPending}
          aria-describedby={`${ids.hint}-rotate`}
          data-testid="demo-fault-rotate"
        >
          <KeyRound size={16} aria-hidden={true} /> {t('demoFaults.rotate')}
        </button>
        <span className="hint" id={`${ids.hint}-rotate`}>
          {t('demoFaults.rotateHint')}
        </span>
      </div>
      <p role="status" className="small" data-testid="demo-faults-status">
        {applied ? t('demoFaults.saved') : ''}{' '}
        {q.data.signingKeyRotations > 0
          ? t('demoFaults.rotated', { count: q.data.signingKeyRotations })
          : ''}
      </p>
      {set.error && <ErrorState error={set.error} compact />}
      {rotate.error && <ErrorState error={rotate.error} compact />}
    </section>
  );
}
