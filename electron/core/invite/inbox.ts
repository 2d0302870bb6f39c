import type { InviteOutcome } from '../../common/files-and-invites';
import { parseInviteLink } from './invite-link';

/**
 * Invite links the app was opened with (Electron: the learning-desktop: scheme, from the OS). The
 * page may not be listening yet (the app was started by the link), so the last outcome waits here
 * until the page takes it; it is taken once, so a reload does not show it again.
 */
export interface InviteInbox {
  /**
   * Reads the link, keeps the outcome for the page and announces it. Never adds a site or signs in.
   */
  open(link: string): InviteOutcome;
  take(): InviteOutcome | null;
}

export function createInviteInbox(announce: (outcome: InviteOutcome) => void): InviteInbox {
  let pending: InviteOutcome | null = null;
  return {
    open(link) {
      const outcome = parseInviteLink(link);
      pending = outcome;
      announce(outcome);
      return outcome;
    },
    take() {
      const outcome = pending;
      pending = null;
      return outcome;
    },
  };
}
