/**
 * The app's side of the consent: the settings screen's changes, saved atomically to
 * ai-assistant.json (the server reads it at every call). Turning the feature off removes what it
 * wrote: the consent itself and the activity log.
 */
import { rm } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';
import { ActivityLog } from './activity-log';
import { AssistantRequests } from './requests';
import {
  CONSENT_CATEGORIES,
  ConsentReader,
  consentFile,
  DEFAULT_CATEGORIES,
  normaliseConsent,
  SURFACE_VERSION,
  type AssistantConsent,
  type ConsentCategory,
} from './consent';

/** One change from the settings screen; fields left out stay as they are. */
export interface ConsentPatch {
  readonly enabled?: boolean;
  readonly cloudAcknowledged?: boolean;
  readonly fullPaymentCodes?: boolean;
  readonly allowMarkRead?: boolean;
  readonly school?: {
    readonly siteId: string;
    readonly enabled?: boolean;
    readonly categories?: Partial<Record<ConsentCategory, boolean>>;
  };
}

export interface ConsentStoreDeps {
  readonly dataDir: string;
  /**
   * The schools kept now: turning the feature on allows each of them with the default categories.
   */
  readonly siteIds: () => readonly string[];
}

export class ConsentStore {
  readonly #deps: ConsentStoreDeps;
  readonly #reader: ConsentReader;
  readonly #queue = createKeyedQueue();

  constructor(deps: ConsentStoreDeps) {
    this.#deps = deps;
    this.#reader = new ConsentReader(deps.dataDir);
  }

  current(): AssistantConsent {
    return this.#reader.current();
  }

  /** Applies one change, one after another; answers the consent now in force. */
  update(patch: ConsentPatch): Promise<AssistantConsent> {
    return this.#queue('consent', async () => {
      const before = this.#reader.current();
      if (patch.enabled === false) {
        await this.#removeAll();
        return this.#reader.current();
      }
      const next = applyPatch(before, patch, this.#deps.siteIds());
      await writeFileAtomic(consentFile(this.#deps.dataDir), JSON.stringify(next, null, 2), 0o600);
      return this.#reader.current();
    });
  }

  /** Everything the feature wrote in the data folder. */
  async #removeAll(): Promise<void> {
    await rm(consentFile(this.#deps.dataDir), { force: true });
    new ActivityLog({ dataDir: this.#deps.dataDir }).clear();
    new AssistantRequests({ dataDir: this.#deps.dataDir }).clear();
  }
}

export function applyPatch(
  before: AssistantConsent,
  patch: ConsentPatch,
  siteIds: readonly string[],
): AssistantConsent {
  const next: AssistantConsent = {
    ...before,
    schools: { ...before.schools },
    ...(patch.cloudAcknowledged === undefined
      ? {}
      : { cloudAcknowledged: patch.cloudAcknowledged }),
    ...(patch.fullPaymentCodes === undefined ? {} : { fullPaymentCodes: patch.fullPaymentCodes }),
    ...(patch.allowMarkRead === undefined ? {} : { allowMarkRead: patch.allowMarkRead }),
  };
  if (patch.enabled === true) {
    // On only with the acknowledgement; the surface agreed to is this version's.
    next.enabled = next.cloudAcknowledged;
    next.surface = next.enabled ? SURFACE_VERSION : null;
    if (next.enabled && Object.keys(next.schools).length === 0)
      for (const id of siteIds)
        next.schools[id] = { enabled: true, categories: { ...DEFAULT_CATEGORIES } };
  }
  if (patch.cloudAcknowledged === false) {
    next.enabled = false;
    next.surface = null;
  }
  if (patch.school) {
    const old = next.schools[patch.school.siteId] ?? {
      enabled: false,
      categories: { ...DEFAULT_CATEGORIES },
    };
    const categories = { ...old.categories };
    for (const c of CONSENT_CATEGORIES) {
      const v = patch.school.categories?.[c];
      if (v !== undefined) categories[c] = v;
    }
    next.schools[patch.school.siteId] = {
      enabled: patch.school.enabled ?? old.enabled,
      categories,
    };
  }
  return normaliseConsent(next);
}
