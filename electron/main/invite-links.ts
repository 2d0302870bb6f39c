import { app } from 'electron';
import { resolve } from 'node:path';
import { INVITE_SCHEME, inviteArgument } from '../core/invite/invite-link';
import { takeInviteLinks } from './early-links';

/**
 * A school's invite links (learning-desktop://add-site?...) open the app: the scheme is registered
 * with the OS, and a link arrives by 'open-url' (macOS) or as an argument of the process or of a
 * second instance (Windows, Linux). Thin: the link is handed to the core, which reads it
 * (electron/core/invite) and asks the page to show it.
 */
export function registerInviteScheme(log: (line: string) => void): void {
  // Run from a checkout (`electron .`), the OS must start Electron with the app's folder as its
  // first argument.
  const registered =
    process.defaultApp && process.argv[1] !== undefined
      ? app.setAsDefaultProtocolClient(INVITE_SCHEME, process.execPath, [resolve(process.argv[1])])
      : app.setAsDefaultProtocolClient(INVITE_SCHEME);
  if (!registered)
    log(`invite links: the ${INVITE_SCHEME}: scheme could not be registered with the system`);
}

/**
 * Calls `open` with each invite link the app receives, from now on and the one it was started with
 * (macOS: by 'open-url', held since index.ts began, see early-links.ts; Windows and Linux: in the
 * arguments).
 */
export function listenForInviteLinks(open: (link: string) => void): void {
  takeInviteLinks(open);
  app.on('second-instance', (_event, argv) => {
    const link = inviteArgument(argv);
    if (link) open(link);
  });
  const first = inviteArgument(process.argv);
  if (first) open(first);
}
