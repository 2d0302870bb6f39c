/** The invite feature's one public entry: what the shell and the other features may use of it. */
export { InviteListener } from './InviteListener';
export { InviteNotice } from './InviteNotice';
export { InvitePasteForm } from './InvitePasteForm';
