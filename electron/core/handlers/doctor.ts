import type { CoreHandlers } from '../../common/ipc-contract';
import type { AppInfo } from '../../common/view-models';
import { runDoctor } from '../doctor/run-doctor';
import type { FetchLike } from '../net/http';
import { requireSite, type AppServices } from './services';

export interface DoctorHandlerOptions {
  readonly fetch?: FetchLike;
  /** The environment the sign-in doctor reads proxy variables from (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The sign-in doctor: checks a saved site, or an address and client id the student could not add.
 */
export type DoctorHandlersDeps = Pick<AppServices, 'sites' | 'clock' | 'log'>;

export function createDoctorHandlers(
  s: DoctorHandlersDeps,
  info: AppInfo,
  options: DoctorHandlerOptions,
): Pick<CoreHandlers, 'doctor:run'> {
  return {
    'doctor:run': async (input) => {
      // A saved site, with its last attempt; or an address and client id the student could not add.
      const target =
        'siteId' in input
          ? ((site) => ({
              site: { label: site.label, baseUrl: site.baseUrl, clientId: site.clientId },
              attempt: s.sites.lastSignInAttempt(site.id),
            }))(requireSite(s, input.siteId))
          : {
              site: {
                label: input.baseUrl,
                baseUrl: input.baseUrl,
                clientId: input.clientId.trim(),
              },
              attempt: null,
            };
      const report = await runDoctor(target, {
        fetch: options.fetch ?? ((url, init) => fetch(url, init)),
        clock: s.clock,
        env: options.env ?? process.env,
        app: { version: info.version, host: info.host, platform: info.platform },
      });
      s.log.info('sign-in doctor ran', {
        checks: report.checks.map((c) => `${c.id}:${c.status}`).join(' '),
      });
      return report;
    },
  };
}
