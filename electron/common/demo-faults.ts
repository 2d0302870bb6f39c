/**
 * Demo mode's fault panel (Settings > Demo): the faults of the embedded demo sites the student can
 * switch live, to watch the app degrade and recover. Both demo sites share one set of switches.
 */
export interface DemoFaults {
  /** The sites drop every connection (the app sees no network). */
  readonly offline: boolean;
  /** Added to every answer, in milliseconds. */
  readonly latencyMs: number;
  /** The member API answers 503 temporarily_unavailable. */
  readonly memberApiUnavailable: boolean;
  /**
   * Every refresh is refused (invalid_grant); switching it on also ends the live access tokens, so
   * the app refreshes.
   */
  readonly refreshRefused: boolean;
  /** The sites' clock runs this many minutes off (id_token times and the Date header). */
  readonly clockSkewMinutes: number;
  /** What the sites do to a product file download: slow it, cut it halfway, or answer 404 / 410. */
  readonly download: DemoDownloadFault;
}

export const DEMO_DOWNLOAD_FAULTS = ['none', 'slow', 'cut', 'not-found', 'gone'] as const;
export type DemoDownloadFault = (typeof DEMO_DOWNLOAD_FAULTS)[number];

export interface DemoFaultsView {
  /** The demo sites run in this app (demo mode); the panel is shown only then. */
  readonly running: boolean;
  readonly faults: DemoFaults;
  /** How many times the signing key was rotated from the panel in this run. */
  readonly signingKeyRotations: number;
}

/** The choices the panel offers (the contract accepts exactly these). */
export const DEMO_LATENCY_CHOICES_MS = [0, 1500, 3000, 8000] as const;
export const DEMO_CLOCK_SKEW_CHOICES_MIN = [-15, 0, 15] as const;

export const NO_DEMO_FAULTS: DemoFaults = {
  offline: false,
  latencyMs: 0,
  memberApiUnavailable: false,
  refreshRefused: false,
  clockSkewMinutes: 0,
  download: 'none',
};
