import type { SyncStatus } from '../../common/view-models';
import { isTransient, type CoreError } from '../errors';
import { failedBeforeConnecting, type Reach } from '../net/reachability';

export interface SiteReachDeps {
  /** Whether the operating system lists a network (net/reachability.ts rule 1). */
  readonly networkUp: () => boolean;
}

/** How each site answered at its last contact, and what that says (net/reachability.ts). */
export class SiteReach {
  readonly #deps: SiteReachDeps;
  readonly #last = new Map<string, Reach>();

  constructor(deps: SiteReachDeps) {
    this.#deps = deps;
  }

  answered(siteId: string): void {
    this.#last.set(siteId, 'answering');
  }

  /** No answer, for a reason not worth classifying (a probe timed out). */
  notAnswering(siteId: string): void {
    this.#last.set(siteId, 'not-answering');
  }

  /**
   * A contact that failed: the network or the school (net/reachability.ts rule 2); the site
   * answered otherwise.
   */
  contactFailed(siteId: string, error: CoreError): void {
    if (isTransient(error))
      this.#last.set(siteId, failedBeforeConnecting(error) ? 'no-network' : 'not-answering');
    else if (error.code !== 'sync-cancelled') this.#last.set(siteId, 'answering');
  }

  forget(siteId: string): void {
    this.#last.delete(siteId);
  }

  /** Online until a contact says otherwise. */
  online(siteId: string): boolean {
    const last = this.#last.get(siteId);
    return last === undefined || last === 'answering';
  }

  /**
   * net/reachability.ts: offline when the OS lists no network, or the failure came before
   * connecting and no other school answers.
   */
  of(siteId: string): SyncStatus['reach'] {
    const last = this.#last.get(siteId);
    if (last === undefined) return 'unknown';
    if (last === 'answering') return 'answering';
    if (!this.#deps.networkUp()) return 'offline';
    if (last === 'no-network' && !this.#otherAnswers(siteId)) return 'offline';
    return 'not-answering';
  }

  #otherAnswers(siteId: string): boolean {
    for (const [id, r] of this.#last) if (id !== siteId && r === 'answering') return true;
    return false;
  }
}
