import type { CoreHandlers } from '../../common/ipc-contract';
import type { InviteInbox } from '../invite/inbox';
import { parseInviteLink } from '../invite/invite-link';

/** A school's invite link: read one the student pasted, take the one the app was opened with. */
export function createInviteHandlers(
  invites: InviteInbox,
): Pick<CoreHandlers, 'invite:parse' | 'invite:take-pending'> {
  return {
    'invite:parse': async ({ link }) => parseInviteLink(link),
    'invite:take-pending': async () => invites.take(),
  };
}
